import { api, withSession } from '../../../api/client';
import { refusedAsStale, useBackofficeMutation, versionRead } from './backoffice-mutation';

/** The delete says which version it read (If-Match): a copy restocked meanwhile is refused (412), not deleted with stock unseen. */
const deleteCopy = ({ id, version }: { id: number; version: number }) =>
  withSession('Employee', () => api.DELETE('/api/employee/book-copy/{id}', { params: { path: { id }, header: versionRead(version) } }));

/** The dashboard counts the copies; a copy changed since it was read (412) is read again, so the table shows it as it is. */
export const useDeleteCopy = () => useBackofficeMutation(deleteCopy, ['copies', 'lowStock', 'dashboard'], { staleWhen: refusedAsStale });
