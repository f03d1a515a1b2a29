// A back-office write, as a mutation that owns its invalidation: it names the resources whose
// cached reads it changes, and mutateAsync resolves once those have been refetched.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type BackofficeResource, backofficeKeys } from './query-keys';

export function useBackofficeMutation<Variables, Result>(
  mutationFn: (variables: Variables) => Promise<Result>,
  invalidates: readonly BackofficeResource[],
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => Promise.all(invalidates.map((resource) => queryClient.invalidateQueries({ queryKey: backofficeKeys[resource].all }))),
  });
}
