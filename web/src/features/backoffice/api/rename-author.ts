import { api, withSession } from '../../../api/client';
import { useBackofficeMutation, versionRead } from './backoffice-mutation';

/** A rename says which version of the author it read (If-Match), so a rename made meanwhile is never undone: 412 instead. */
const renameAuthor = ({ id, name, version }: { id: number; name: string; version: number }) =>
  withSession('Employee', () =>
    api.PUT('/api/employee/author/{id},{name}', { params: { path: { id, name }, header: versionRead(version) } }),
  );

export const useRenameAuthor = () => useBackofficeMutation(renameAuthor, ['authors', 'lowStock']);
