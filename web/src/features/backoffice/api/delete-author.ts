import { api, withSession } from '../../../api/client';
import { refusedAsStale, useBackofficeMutation, versionRead } from './backoffice-mutation';

/** The delete says which version it read (If-Match): an author renamed meanwhile is refused (412), not deleted unseen. */
const deleteAuthor = ({ id, version }: { id: number; version: number }) =>
  withSession('Employee', () => api.DELETE('/api/employee/author/{id}', { params: { path: { id }, header: versionRead(version) } }));

/** An author renamed since the table read them (412) is read again, so the table shows the name now. */
export const useDeleteAuthor = () => useBackofficeMutation(deleteAuthor, ['authors'], { staleWhen: refusedAsStale });
