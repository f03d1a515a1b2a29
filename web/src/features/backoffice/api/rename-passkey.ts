import { api, withSession } from '../../../api/client';
import { useBackofficeMutation } from './backoffice-mutation';

const renamePasskey = ({ id, name }: { id: number; name: string }) =>
  withSession('Employee', () => api.PUT('/api/employee/second-factor/passkeys/{id}', { params: { path: { id } }, body: { name } }));

export const useRenamePasskey = () => useBackofficeMutation(renamePasskey, ['secondFactor']);
