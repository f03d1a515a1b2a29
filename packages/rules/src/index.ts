export * from './book-pages.ts';
export * from './forms.ts';
export * from './password.ts';
