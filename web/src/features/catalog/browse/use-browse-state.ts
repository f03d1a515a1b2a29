import { type BrowseState, browseSearchParams, clampedPage, parseBrowseState } from '@bookshop/rules/browse';
import { useCallback, useEffect, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';

/**
 * The listing's state from the address, and a setter that writes a new entry to the history (so
 * Back returns to the previous choice), or with `replace` corrects the current one (a page past the
 * end moved to the last, which Back must not return to). `keep` names parameters carried along (a
 * search's text).
 */
export function useBrowseState(keep: string[] = []) {
  const [params, setParams] = useSearchParams();
  const state = useMemo(() => parseBrowseState(params), [params]);
  const kept = keep.map((k) => [k, params.get(k)] as const);
  const keptKey = JSON.stringify(kept);
  const setState = useCallback(
    (next: BrowseState, { replace = false }: { replace?: boolean } = {}) => {
      const carried = Object.fromEntries((JSON.parse(keptKey) as [string, string | null][]).filter(([, v]) => v !== null)) as Record<
        string,
        string
      >;
      setParams(browseSearchParams(next, carried), { replace });
    },
    [setParams, keptKey],
  );
  return [state, setState] as const;
}

/**
 * Spec 2.5 clamps paging to 1..totalPages: once the listing's answer says the address's page is past
 * its end, the address moves to the last page in place (the server redirects such an address there
 * too). True until it has, so the screen says nothing about an empty page meanwhile.
 */
export function useClampedToLastPage(
  state: BrowseState,
  setState: (next: BrowseState, options: { replace: boolean }) => void,
  totalPages: number | undefined,
) {
  const last = totalPages === undefined ? undefined : clampedPage(state, totalPages);
  useEffect(() => {
    if (last !== undefined) setState({ ...state, page: last }, { replace: true });
  }, [last, state, setState]);
  return last !== undefined;
}
