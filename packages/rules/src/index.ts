export * from './cover.ts';
export * from './forms.ts';
export * from './orders.ts';
export * from './page-addresses.ts';
export * from './password.ts';
