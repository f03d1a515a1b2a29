// A back-office write, as a mutation that owns its invalidation: it names the resources whose
// cached reads it changes (the audit log, which every write adds to, goes without saying). By default
// it settles once the reads on screen have been fetched again (react-query waits for the promise its
// callback returns), so a row's action that runs once at a time (useRunOncePer) is free again only
// when the row shows what the write did: a second click on a deleted message's Delete finds no
// button, not a 404 that says the delete failed.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../../../api/client';
import { type BackofficeResource, backofficeKeys } from './query-keys';

export function useBackofficeMutation<Variables, Result>(
  mutationFn: (variables: Variables) => Promise<Result>,
  invalidates: readonly BackofficeResource[],
  options: {
    /** A refusal that says the cached reads are out of date (what it names is gone or has moved on): they are refreshed as after a success. */
    staleWhen?: (error: unknown) => boolean;
    /**
     * Settles as soon as the write has, the reads refetching meanwhile: for a screen that says how
     * the write went at once and sends its next write from what this one set, not from the row shown.
     */
    settleBeforeRefresh?: boolean;
  } = {},
) {
  const { staleWhen, settleBeforeRefresh = false } = options;
  const queryClient = useQueryClient();
  // The audit log too: the API records every back-office write in it, in the write's transaction.
  // A refetch that fails does not make the write's outcome a failure (the screen says the read's failure
  // its own way: useAdminList keeps the rows it had, QueryView shows it with a Retry).
  const refresh = () =>
    Promise.all(
      [...new Set<BackofficeResource>([...invalidates, 'auditLog'])].map((resource) =>
        queryClient.invalidateQueries({ queryKey: backofficeKeys[resource].all }),
      ),
    );
  const refreshed = async () => {
    if (settleBeforeRefresh) void refresh();
    else await refresh();
  };
  return useMutation({
    mutationFn,
    onSuccess: refreshed,
    onError: async (error) => {
      if (staleWhen?.(error)) await refreshed();
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
