import { api, withSession } from '../../../api/client';
import { useBackofficeMutation } from './backoffice-mutation';

const removeTotp = () => withSession('Employee', () => api.DELETE('/api/employee/second-factor/totp'));

/** Changing one's factors ends one's other sessions: the sessions list is read again too. */
export const useRemoveTotp = () => useBackofficeMutation(removeTotp, ['secondFactor', 'sessions']);
