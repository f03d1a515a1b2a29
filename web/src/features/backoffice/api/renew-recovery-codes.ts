import { api, withSession } from '../../../api/client';
import { useBackofficeMutation } from './backoffice-mutation';

const renewRecoveryCodes = () => withSession('Employee', () => api.POST('/api/employee/second-factor/recovery-codes'));

/** Changing one's factors ends one's other sessions: the sessions list is read again too. */
export const useRenewRecoveryCodes = () => useBackofficeMutation(renewRecoveryCodes, ['secondFactor', 'sessions']);
