import { api, withSession } from '../../../api/client';
import { useBackofficeMutation } from './backoffice-mutation';

const renameAuthor = ({ id, name }: { id: number; name: string }) =>
  withSession('Employee', () => api.PUT('/api/employee/author/{id},{name}', { params: { path: { id, name } } }));

export const useRenameAuthor = () => useBackofficeMutation(renameAuthor, ['authors']);
