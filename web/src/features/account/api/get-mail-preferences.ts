// The client's e-mail choices (beyond the spec): order status and back-in-stock e-mails.
import { queryOptions } from '@tanstack/react-query';
import { api, withSession } from '../../../api/client';
import { clientKeys } from '../../../lib/query-keys';
import { useClientQuery } from '../../../lib/session';

export const mailPreferencesQuery = queryOptions({
  queryKey: clientKeys.mailPreferences,
  queryFn: () => withSession('Client', () => api.GET('/api/client/manage/mail-preferences')),
});

export function useMailPreferences() {
  return useClientQuery(mailPreferencesQuery);
}
