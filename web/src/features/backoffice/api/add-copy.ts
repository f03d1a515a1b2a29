import { api, withSession } from '../../../api/client';
import type { BodyOf } from '../../../api/types';
import { useBackofficeMutation } from './backoffice-mutation';

const addCopy = (body: BodyOf<'addBookCopy'>) => withSession('Employee', () => api.POST('/api/employee/book-copy', { body }));

/** The dashboard counts the copies; Low Stock lists a new one with little stock. */
export const useAddCopy = () => useBackofficeMutation(addCopy, ['copies', 'lowStock', 'dashboard']);
