import { api, withSession } from '../../../api/client';
import { useBackofficeMutation } from './backoffice-mutation';

const confirmTotp = (code: string) =>
  withSession('Employee', () => api.POST('/api/employee/second-factor/totp/confirm', { body: { code } }));

export const useConfirmTotp = () => useBackofficeMutation(confirmTotp, ['secondFactor']);
