import { api, isNotFound, withSession } from '../../../api/client';
import { refusedAsMovedOn, useBackofficeMutation } from './backoffice-mutation';

/** `from`: the role the row shows, so that an employee another Admin changed meanwhile is refused, not switched back. */
const changeRole = ({ id, role, from }: { id: number; role: string; from: 'Admin' | 'Seller' }) =>
  withSession('Employee', () => api.PUT('/api/employee/{id}/role', { params: { path: { id }, query: { from } }, body: { role } }));

/** Refused because the role moved on (409) or the employee is gone (404), the list is read again too. */
export const useChangeRole = () =>
  useBackofficeMutation(changeRole, ['employees'], { staleWhen: (error) => refusedAsMovedOn(error) || isNotFound(error) });
