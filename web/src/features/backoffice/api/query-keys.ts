// One query-key factory per back-office resource (Medusa's recipe), under the employee's root.
import { employeeRoot } from '../../../lib/query-keys';

const queryKeysFactory = <Resource extends string>(resource: Resource) => ({
  /** Everything cached of the resource: what a write invalidates. */
  all: [...employeeRoot, resource] as const,
  page: (page: number) => [...employeeRoot, resource, 'page', page] as const,
  /** A search of the table by id or by name; under `all`, so a write refreshes the rows found too. */
  search: (text: string) => [...employeeRoot, resource, 'search', text] as const,
  /** A read with parameters (a chart, a filtered page, one import). */
  detail: (params: object | number | string) => [...employeeRoot, resource, 'detail', params] as const,
});

export const backofficeKeys = {
  dashboard: queryKeysFactory('dashboard'),
  orders: queryKeysFactory('orders'),
  authors: queryKeysFactory('authors'),
  books: queryKeysFactory('books'),
  copies: queryKeysFactory('copies'),
  clients: queryKeysFactory('clients'),
  messages: queryKeysFactory('messages'),
  employees: queryKeysFactory('employees'),
  reviews: queryKeysFactory('reviews'),
  charts: queryKeysFactory('charts'),
  auditLog: queryKeysFactory('auditLog'),
  lowStock: queryKeysFactory('lowStock'),
  imports: queryKeysFactory('imports'),
  me: queryKeysFactory('me'),
  secondFactor: queryKeysFactory('secondFactor'),
  sessions: queryKeysFactory('sessions'),
  mail: queryKeysFactory('mail'),
};

export type BackofficeResource = keyof typeof backofficeKeys;
