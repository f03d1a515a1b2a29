// Back-office calls: every one runs with the employee session (refreshed once on a 401).
import { api, withSession } from '../../api/client';

/**
 * All Clients and Client Messages answer a bare array when called without paging (as the spec's
 * screens read them); called with paging, as here, they answer one page.
 */
async function paged<Page extends object, Row>(call: Promise<Row[] | Page>): Promise<Page> {
  const data = await call;
  if (Array.isArray(data)) throw new Error('expected a page: the list was called without paging');
  return data;
}

export const employeeApi = {
  summary: () => withSession('Employee', () => api.GET('/api/employee/statistics')),
  recentOrders: () => withSession('Employee', () => api.GET('/api/employee/statistics/resent-orders/')),
  newClients: () => withSession('Employee', () => api.GET('/api/employee/statistics/new-clients/')),
  clients: (pageNumber: number, pageSize: number) =>
    paged(withSession('Employee', () => api.GET('/api/employee/statistics/clients/', { params: { query: { pageNumber, pageSize } } }))),
  messages: (pageNumber: number, pageSize: number) =>
    paged(withSession('Employee', () => api.GET('/api/employee/contact', { params: { query: { pageNumber, pageSize } } }))),
  deleteMessage: (id: number) => withSession('Employee', () => api.DELETE('/api/employee/contact/{id}', { params: { path: { id } } })),

  orders: (pageNumber: number, pageSize: number) =>
    withSession('Employee', () => api.GET('/api/employee/order/{pageNumber},{pageSize}', { params: { path: { pageNumber, pageSize } } })),
  setOrderStatus: (orderId: number, status: 'Processing' | 'Shipped') =>
    withSession('Employee', () => api.PUT('/api/employee/order/set-status/{orderId},{status}', { params: { path: { orderId, status } } })),

  authors: (pageNumber: number, pageSize: number) =>
    withSession('Employee', () => api.GET('/api/employee/author/{pageNumber},{pageSize}', { params: { path: { pageNumber, pageSize } } })),
  authorById: (id: number) => withSession('Employee', () => api.GET('/api/employee/author/by-id/{id}', { params: { path: { id } } })),
  authorsByName: (name: string) =>
    withSession('Employee', () => api.GET('/api/employee/author/by-name/{name}', { params: { path: { name } } })),
  addAuthor: (name: string) => withSession('Employee', () => api.POST('/api/employee/author/{name}', { params: { path: { name } } })),
  renameAuthor: (id: number, name: string) =>
    withSession('Employee', () => api.PUT('/api/employee/author/{id},{name}', { params: { path: { id, name } } })),
  deleteAuthor: (id: number) => withSession('Employee', () => api.DELETE('/api/employee/author/{id}', { params: { path: { id } } })),

  books: (pageNumber: number, pageSize: number) =>
    withSession('Employee', () => api.GET('/api/employee/book/{pageNumber},{pageSize}', { params: { path: { pageNumber, pageSize } } })),
  bookById: (id: number) => withSession('Employee', () => api.GET('/api/employee/book/by-id/{id}', { params: { path: { id } } })),
  booksByName: (name: string) =>
    withSession('Employee', () => api.GET('/api/employee/book/by-name/{name}', { params: { path: { name } } })),
  addBook: (isbn: string) => withSession('Employee', () => api.POST('/api/employee/book/{isbn}', { params: { path: { isbn } } })),
  updateBook: (body: {
    id: number;
    name?: string;
    pagesNumber?: number | null;
    authorId?: number;
    typeId?: number;
    publishedAt?: string | null;
  }) => withSession('Employee', () => api.PUT('/api/employee/book', { body })),
  deleteBook: (id: number) => withSession('Employee', () => api.DELETE('/api/employee/book/{id}', { params: { path: { id } } })),

  copies: (pageNumber: number, pageSize: number) =>
    withSession('Employee', () =>
      api.GET('/api/employee/book-copy/{pageNumber},{pageSize}', { params: { path: { pageNumber, pageSize } } }),
    ),
  copyById: (id: number) => withSession('Employee', () => api.GET('/api/employee/book-copy/by-id/{id}', { params: { path: { id } } })),
  addCopy: (body: { bookId: number; quantity: number; price: number; isAvailable: boolean }) =>
    withSession('Employee', () => api.POST('/api/employee/book-copy', { body })),
  updateCopy: (body: { id: number; bookId: number; quantity: number; price: number; isAvailable: boolean }) =>
    withSession('Employee', () => api.PUT('/api/employee/book-copy', { body })),
  deleteCopy: (id: number) => withSession('Employee', () => api.DELETE('/api/employee/book-copy/{id}', { params: { path: { id } } })),

  employees: () => withSession('Employee', () => api.GET('/api/employee/employees/')),
  addEmployee: (body: {
    person_informations: {
      firstName: string;
      lastName: string;
      gender: string;
      birthDate: string;
      email: string;
      phoneNumber: string;
      address: string;
    };
    password: string;
    role: string;
  }) => withSession('Employee', () => api.POST('/api/employee', { body })),
  deleteEmployee: (id: number) => withSession('Employee', () => api.DELETE('/api/employee/{id}', { params: { path: { id } } })),
  me: () => withSession('Employee', () => api.GET('/api/employee/employee/')),
  updateMe: (body: {
    firstName: string;
    lastName: string;
    gender: string;
    birthDate: string;
    email: string;
    phoneNumber: string;
    address: string;
  }) => withSession('Employee', () => api.PUT('/api/employee', { body })),
  changePassword: (body: { oldPassword: string; newPassword: string }) =>
    withSession('Employee', () => api.PUT('/api/employee/password/', { body })),
};
