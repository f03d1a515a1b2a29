import { api, withSession } from '../../../api/client';
import { useBackofficeMutation } from './backoffice-mutation';

const runImport = ({ id, skipInvalid }: { id: number; skipInvalid: boolean }) =>
  withSession('Employee', () => api.POST('/api/employee/catalog/import/{id}/run', { params: { path: { id } }, body: { skipInvalid } }));

/** The job's own read follows its progress (get-import.ts); what it writes is refreshed once it is done there. */
export const useRunImport = () => useBackofficeMutation(runImport, ['imports']);
