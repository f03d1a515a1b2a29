import { api, withSession } from '../../../api/client';
import type { BodyOf } from '../../../api/types';
import { useBackofficeMutation, versionRead } from './backoffice-mutation';

/** A book's save says which version it read (If-Match), so another employee's save made meanwhile is never undone: 412 instead. */
const updateBook = ({ version, ...body }: BodyOf<'updateBook'> & { version: number }) =>
  withSession('Employee', () => api.PUT('/api/employee/book', { body, params: { header: versionRead(version) } }));

export const useUpdateBook = () => useBackofficeMutation(updateBook, ['books', 'lowStock']);
