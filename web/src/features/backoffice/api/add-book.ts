import { api, withSession } from '../../../api/client';
import { useBackofficeMutation } from './backoffice-mutation';

/** Adds the book an ISBN names, looked up by the server. */
const addBook = (isbn: string) => withSession('Employee', () => api.POST('/api/employee/book/{isbn}', { params: { path: { isbn } } }));

/** The dashboard counts the books; an ISBN's author new to the shop is added with the book. */
export const useAddBook = () => useBackofficeMutation(addBook, ['books', 'authors', 'dashboard']);
