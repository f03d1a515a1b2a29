import { api, withSession } from '../../../api/client';
import { useBackofficeMutation } from './backoffice-mutation';

const removePasskey = (id: number) =>
  withSession('Employee', () => api.DELETE('/api/employee/second-factor/passkeys/{id}', { params: { path: { id } } }));

/** Changing one's factors ends one's other sessions: the sessions list is read again too. */
export const useRemovePasskey = () => useBackofficeMutation(removePasskey, ['secondFactor', 'sessions']);
