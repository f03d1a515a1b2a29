import { type BrowseState, browseSearchParams, parseBrowseState } from '@bookshop/rules/browse';
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';

/**
 * The listing's state from the address, and a setter that writes a new entry to the history (so
 * Back returns to the previous choice). `keep` names parameters carried along (a search's text).
 */
export function useBrowseState(keep: string[] = []) {
  const [params, setParams] = useSearchParams();
  const state = useMemo(() => parseBrowseState(params), [params]);
  const kept = keep.map((k) => [k, params.get(k)] as const);
  const keptKey = JSON.stringify(kept);
  const setState = useCallback(
    (next: BrowseState) => {
      const carried = Object.fromEntries((JSON.parse(keptKey) as [string, string | null][]).filter(([, v]) => v !== null)) as Record<
        string,
        string
      >;
      setParams(browseSearchParams(next, carried));
    },
    [setParams, keptKey],
  );
  return [state, setState] as const;
}
