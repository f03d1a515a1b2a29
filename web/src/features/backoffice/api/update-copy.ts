import { api, withSession } from '../../../api/client';
import type { BodyOf } from '../../../api/types';
import { useBackofficeMutation, versionRead } from './backoffice-mutation';

/** A copy's save says which version it read (If-Match), so a sale made meanwhile is never undone: 412 instead. */
const updateCopy = ({ version, ...body }: BodyOf<'updateBookCopy'> & { version: number }) =>
  withSession('Employee', () => api.PUT('/api/employee/book-copy', { body, params: { header: versionRead(version) } }));

export const useUpdateCopy = () => useBackofficeMutation(updateCopy, ['copies', 'lowStock']);
