import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, withSession } from '../../../api/client';
import type { BodyOf } from '../../../api/types';
import { clientKeys } from '../../../lib/query-keys';

export type MailPreferences = BodyOf<'setMailPreferences'>;

const setMailPreferences = (body: MailPreferences) => withSession('Client', () => api.PUT('/api/client/manage/mail-preferences', { body }));

/** The answer is the stored choices, so it replaces the cached ones without a refetch. */
export function useSetMailPreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setMailPreferences,
    onSuccess: (stored) => queryClient.setQueryData(clientKeys.mailPreferences, stored),
  });
}
