import { api, withSession } from '../../../api/client';
import { useBackofficeMutation } from './backoffice-mutation';

/** A rename says which version of the author it read (If-Match), so a rename made meanwhile is never undone: 412 instead. */
const renameAuthor = ({ id, name, version }: { id: number; name: string; version: number }) =>
  withSession('Employee', () =>
    api.PUT('/api/employee/author/{id},{name}', { params: { path: { id, name }, header: { 'if-match': `"${version}"` } } }),
  );

export const useRenameAuthor = () => useBackofficeMutation(renameAuthor, ['authors', 'lowStock']);
