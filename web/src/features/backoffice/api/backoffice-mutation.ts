// A back-office write, as a mutation that owns its invalidation: it names the resources whose
// cached reads it changes (the audit log, which every write adds to, goes without saying). It
// settles as soon as the write has, so the screen says how it went at once; the reads refetch
// meanwhile (a table that must show the saved row waits for them itself: useAdminList's write).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../../../api/client';
import { type BackofficeResource, backofficeKeys } from './query-keys';

export function useBackofficeMutation<Variables, Result>(
  mutationFn: (variables: Variables) => Promise<Result>,
  invalidates: readonly BackofficeResource[],
  /** A refusal that says the cached reads are out of date (what it names is gone or has moved on): they are refreshed as after a success. */
  staleWhen?: (error: unknown) => boolean,
) {
  const queryClient = useQueryClient();
  const refresh = () => {
    // The audit log too: the API records every back-office write in it, in the write's transaction.
    for (const resource of new Set<BackofficeResource>([...invalidates, 'auditLog'])) {
      void queryClient.invalidateQueries({ queryKey: backofficeKeys[resource].all });
    }
  };
  return useMutation({
    mutationFn,
    onSuccess: refresh,
    onError: (error) => {
      if (staleWhen?.(error)) refresh();
    },
  });
}

/** The header that says which version of a row a write read: its entity tag, as the API's ETag gives it. */
export const versionRead = (version: number) => ({ 'if-match': `"${version}"` });

/** A write refused because the row changed since it was read (412): what the screen shows of it is out of date. */
export const refusedAsStale = (error: unknown) => error instanceof ApiError && error.status === 412;

/** The row as it is now, which a 412 refusal carries (`error.details.current`); undefined for any other failure. */
export const rowNowOf = <Row>(error: unknown): Row | undefined =>
  refusedAsStale(error) ? ((error as ApiError).details?.current as Row | undefined) : undefined;

/** A write refused because what the screen showed has moved on (409): an order's status (or an order kept as it is), an employee's role. */
export const refusedAsMovedOn = (error: unknown) => error instanceof ApiError && error.status === 409;
