import { api, withSession } from '../../../api/client';
import { useBackofficeMutation } from './backoffice-mutation';

const removeTotp = () => withSession('Employee', () => api.DELETE('/api/employee/second-factor/totp'));

export const useRemoveTotp = () => useBackofficeMutation(removeTotp, ['secondFactor']);
