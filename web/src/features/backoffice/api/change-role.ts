import { api, withSession } from '../../../api/client';
import { useBackofficeMutation } from './backoffice-mutation';

const changeRole = ({ id, role }: { id: number; role: string }) =>
  withSession('Employee', () => api.PUT('/api/employee/{id}/role', { params: { path: { id } }, body: { role } }));

export const useChangeRole = () => useBackofficeMutation(changeRole, ['employees']);
