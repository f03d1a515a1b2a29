export * from './forms.ts';
export * from './password.ts';
