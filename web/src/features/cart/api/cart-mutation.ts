// A change to the cart: it refetches the cart however it went (a refusal may mean the cart moved
// on elsewhere), and a 401 marks the client signed out.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../../../api/client';
import { clientKeys } from '../../../lib/query-keys';
import { useSession } from '../../../lib/session';

export function useCartMutation<Variables, Result>(
  mutationFn: (variables: Variables) => Promise<Result>,
  {
    mutationKey,
    invalidates = [clientKeys.cart],
    awaitRefetch = true,
  }: {
    /** Names the change, so a screen can tell which of them are out (useMutationState). */
    mutationKey?: readonly unknown[];
    invalidates?: readonly (readonly unknown[])[];
    /** Whether the mutation settles only once the refetch is done (a cart line's new figures), or at once. */
    awaitRefetch?: boolean;
  } = {},
) {
  const queryClient = useQueryClient();
  const { markSignedOut } = useSession();
  return useMutation({
    mutationKey,
    mutationFn,
    onError: (error) => {
      if (error instanceof ApiError && error.status === 401) markSignedOut();
    },
    onSettled: () => {
      const refetched = Promise.all(invalidates.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
      return awaitRefetch ? refetched : undefined;
    },
  });
}
