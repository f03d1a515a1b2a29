import { api, withSession } from '../../../api/client';
import type { BodyOf } from '../../../api/types';
import { useBackofficeMutation } from './backoffice-mutation';

const updateCopy = (body: BodyOf<'updateBookCopy'>) => withSession('Employee', () => api.PUT('/api/employee/book-copy', { body }));

export const useUpdateCopy = () => useBackofficeMutation(updateCopy, ['copies']);
