import { api, isNotFound, withSession } from '../../../api/client';
import { refusedAsMovedOn, useBackofficeMutation } from './backoffice-mutation';

const runImport = ({ id, skipInvalid }: { id: number; skipInvalid: boolean }) =>
  withSession('Employee', () => api.POST('/api/employee/catalog/import/{id}/run', { params: { path: { id } }, body: { skipInvalid } }));

/**
 * The job's own read follows its progress (get-import.ts); what it writes is refreshed once it is done
 * there. A run refused because the job is gone (404: a newer check replaced it, in another tab) or
 * has moved on (409: already run) reads it again too, so the screen does not keep it as a dry run
 * still waiting for its Import; any other failure (a network blip) keeps the dry run.
 */
export const useRunImport = () =>
  useBackofficeMutation(runImport, ['imports'], { staleWhen: (error) => isNotFound(error) || refusedAsMovedOn(error) });
