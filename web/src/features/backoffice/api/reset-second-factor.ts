import { api, withSession } from '../../../api/client';
import { useBackofficeMutation } from './backoffice-mutation';

const resetSecondFactor = (id: number) =>
  withSession('Employee', () => api.DELETE('/api/employee/{id}/second-factor', { params: { path: { id } } }));

export const useResetSecondFactor = () => useBackofficeMutation(resetSecondFactor, ['employees']);
