import { api, withSession } from '../../../api/client';
import { useBackofficeMutation } from './backoffice-mutation';

const renewRecoveryCodes = () => withSession('Employee', () => api.POST('/api/employee/second-factor/recovery-codes'));

export const useRenewRecoveryCodes = () => useBackofficeMutation(renewRecoveryCodes, ['secondFactor']);
