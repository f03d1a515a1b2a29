// A screen's page and search kept in the address (?page=3&q=tolkien): a reload, a link shared with a
// colleague, or Back and Forward from another screen come back to the same rows. A change the user
// makes is a new history entry, so Back returns to the page before; a correction the screen makes
// (a page past the end moved to the last) replaces the current one, so Back does not return to it.
import { useCallback, useRef } from 'react';
import { useSearchParams } from 'react-router-dom';

/** The highest page an address may name: the API's ids and page numbers are int4. */
const PAGE_MOST = 2_147_483_647;

/** The page an address names: a whole number from 1, else the first. */
export const pageOf = (params: URLSearchParams, name = 'page') =>
  Math.min(PAGE_MOST, Math.max(1, Number.parseInt(params.get(name) ?? '', 10) || 1));

export interface AddressChange {
  /** Correct the current entry instead of adding one. */
  replace?: boolean;
}

/** Sets or removes one parameter, keeping the others (another list's page on the same screen). */
function useParamSetter(name: string) {
  const [params, setParams] = useSearchParams();
  // The address as last rendered: a setter called after an await (a search's answer) must not put
  // back the parameters of the render that started it (a page changed meanwhile).
  const latest = useRef(params);
  latest.current = params;
  return useCallback(
    (value: string | null, { replace = false }: AddressChange = {}) => {
      const next = new URLSearchParams(latest.current);
      if (value === null) next.delete(name);
      else next.set(name, value);
      setParams(next, { replace });
    },
    [name, setParams],
  );
}

/** A list's page in the address under `name`; the first page is the address without it. */
export function usePageInAddress(name = 'page') {
  const [params] = useSearchParams();
  const set = useParamSetter(name);
  const setPage = useCallback((page: number, change?: AddressChange) => set(page > 1 ? String(page) : null, change), [set]);
  return [pageOf(params, name), setPage] as const;
}

/** A text (a search's) in the address under `name`; null when there is none. */
export function useTextInAddress(name: string) {
  const [params] = useSearchParams();
  const set = useParamSetter(name);
  return [params.get(name), set] as const;
}
