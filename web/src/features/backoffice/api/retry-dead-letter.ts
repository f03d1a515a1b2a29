import { api, withSession } from '../../../api/client';
import { useBackofficeMutation } from './backoffice-mutation';

const retryDeadLetter = (id: number) =>
  withSession('Employee', () => api.POST('/api/employee/mail/dead-letters/{id}/retry', { params: { path: { id } } }));

/** A retried e-mail leaves the dead letters. */
export const useRetryDeadLetter = () => useBackofficeMutation(retryDeadLetter, ['mail']);
