import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, withSession } from '../../api/client';
import { useSession } from '../../lib/session';

export const clientInfoQuery = queryOptions({
  queryKey: ['client', 'info'],
  queryFn: () => withSession('Client', () => api.GET('/api/client/manage')),
});

export function useClientInfo() {
  const { loggedIn } = useSession();
  return useQuery({ ...clientInfoQuery, enabled: loggedIn });
}

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { firstName: string; lastName: string; phoneNumber: string }) =>
      withSession('Client', () => api.PATCH('/api/client/manage', { body })),
    onSuccess: (info) => queryClient.setQueryData(clientInfoQuery.queryKey, info),
  });
}

export const useChangePassword = () =>
  useMutation({
    mutationFn: (body: { oldPassword: string; newPassword: string }) =>
      withSession('Client', () => api.PUT('/api/client/manage/password/', { body })),
  });
