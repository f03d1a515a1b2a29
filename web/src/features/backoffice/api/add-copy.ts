import { api, withSession } from '../../../api/client';
import type { BodyOf } from '../../../api/types';
import { useBackofficeMutation } from './backoffice-mutation';

const addCopy = (body: BodyOf<'addBookCopy'>) => withSession('Employee', () => api.POST('/api/employee/book-copy', { body }));

/** The dashboard counts the copies. */
export const useAddCopy = () => useBackofficeMutation(addCopy, ['copies', 'dashboard']);
