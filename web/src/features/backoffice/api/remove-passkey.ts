import { api, withSession } from '../../../api/client';
import { useBackofficeMutation } from './backoffice-mutation';

const removePasskey = (id: number) =>
  withSession('Employee', () => api.DELETE('/api/employee/second-factor/passkeys/{id}', { params: { path: { id } } }));

export const useRemovePasskey = () => useBackofficeMutation(removePasskey, ['secondFactor']);
