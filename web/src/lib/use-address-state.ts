// A screen's page and search kept in the address (?page=3&q=tolkien): a reload, a link shared with a
// colleague, or Back and Forward from another screen come back to the same rows. Each change is a new
// history entry, so Back returns to the page before.
import { useCallback } from 'react';
import { useSearchParams } from 'react-router-dom';

/** The page an address names: a whole number from 1, else the first. */
export const pageOf = (params: URLSearchParams, name = 'page') => Math.max(1, Number.parseInt(params.get(name) ?? '', 10) || 1);

/** Sets or removes one parameter, keeping the others (another list's page on the same screen). */
function useParamSetter(name: string) {
  const [, setParams] = useSearchParams();
  return useCallback(
    (value: string | null) =>
      setParams((current) => {
        const next = new URLSearchParams(current);
        if (value === null) next.delete(name);
        else next.set(name, value);
        return next;
      }),
    [name, setParams],
  );
}

/** A list's page in the address under `name`; the first page is the address without it. */
export function usePageInAddress(name = 'page') {
  const [params] = useSearchParams();
  const set = useParamSetter(name);
  const setPage = useCallback((page: number) => set(page > 1 ? String(page) : null), [set]);
  return [pageOf(params, name), setPage] as const;
}

/** A text (a search's) in the address under `name`; null when there is none. */
export function useTextInAddress(name: string) {
  const [params] = useSearchParams();
  const set = useParamSetter(name);
  return [params.get(name), set] as const;
}
