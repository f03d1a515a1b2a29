import { api, withSession } from '../../../api/client';
import type { BodyOf } from '../../../api/types';
import { useBackofficeMutation } from './backoffice-mutation';

const endOwnEmployeeSessions = (body: BodyOf<'endOwnEmployeeSessions'>) =>
  withSession('Employee', () => api.POST('/api/employee/sessions/end', { body }));

/** The list is read again whatever the answer: a session may have ended meanwhile anyway. */
export const useEndOwnEmployeeSessions = () => useBackofficeMutation(endOwnEmployeeSessions, ['sessions'], { staleWhen: () => true });
