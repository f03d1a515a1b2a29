import { api, withSessionRenewal } from '../../../api/client';
import { useBackofficeMutation } from './backoffice-mutation';

const confirmTotp = (code: string) =>
  withSessionRenewal('Employee', () => api.POST('/api/employee/second-factor/totp/confirm', { body: { code } }));

/** Changing one's factors ends one's other sessions: the sessions list is read again too. */
export const useConfirmTotp = () => useBackofficeMutation(confirmTotp, ['secondFactor', 'sessions']);
