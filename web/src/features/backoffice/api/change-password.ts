import { api, withSessionRenewal } from '../../../api/client';
import type { BodyOf } from '../../../api/types';
import { useBackofficeMutation } from './backoffice-mutation';

const changeEmployeePassword = (body: BodyOf<'changeEmployeePassword'>) =>
  withSessionRenewal('Employee', () => api.PUT('/api/employee/password/', { body }));

/** The password is never read back; a new one ends the other sessions, so their list is read again. */
export const useChangeEmployeePassword = () => useBackofficeMutation(changeEmployeePassword, ['sessions']);
