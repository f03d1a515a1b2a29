import { useMutation } from '@tanstack/react-query';
import { api, withSession } from '../../../api/client';
import type { BodyOf } from '../../../api/types';

const changePassword = (body: BodyOf<'changeClientPassword'>) =>
  withSession('Client', () => api.PUT('/api/client/manage/password/', { body }));

/** Nothing cached changes: the password is never read back. */
export const useChangePassword = () => useMutation({ mutationFn: changePassword });
