import { useMutation } from '@tanstack/react-query';
import { api, withSession } from '../../../api/client';
import type { BodyOf } from '../../../api/types';

const changeEmployeePassword = (body: BodyOf<'changeEmployeePassword'>) =>
  withSession('Employee', () => api.PUT('/api/employee/password/', { body }));

/** Nothing cached changes: the password is never read back. */
export const useChangeEmployeePassword = () => useMutation({ mutationFn: changeEmployeePassword });
