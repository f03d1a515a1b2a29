// A listing's sort, filters and page, kept in the address's query string, so a filtered page can be
// shared and bookmarked and Back returns to the previous choice. Parsing drops anything it does not
// understand, so a hand-edited address still shows a page.

import { BROWSE_FILTER_KEYS, BROWSE_SORTS, type BrowseFilters, type BrowseSort } from '@bookshop/rules/browse';

export const SORTS = BROWSE_SORTS;
export type Sort = BrowseSort;

export interface BrowseState extends BrowseFilters {
  sort?: Sort;
  /** From 1; left out of the address on the first page. */
  page?: number;
}

/** The filters (not the sort or page): what Clear filters removes. */
export const FILTER_KEYS = BROWSE_FILTER_KEYS;

const number = (value: string | null, { min, max, integer }: { min: number; max: number; integer?: boolean }) => {
  if (value === null || !/^\d+(\.\d+)?$/.test(value)) return undefined;
  const n = Number(value);
  if (n < min || n > max || (integer && !Number.isInteger(n))) return undefined;
  return n;
};

export function parseBrowseState(params: URLSearchParams): BrowseState {
  const sort = params.get('sort');
  const state: BrowseState = {
    sort: (SORTS as readonly string[]).includes(sort ?? '') ? (sort as Sort) : undefined,
    priceMin: number(params.get('priceMin'), { min: 0, max: 99_999_999 }),
    priceMax: number(params.get('priceMax'), { min: 0, max: 99_999_999 }),
    inStock: params.get('inStock') === '1' || undefined,
    minRating: number(params.get('minRating'), { min: 0, max: 5 }),
    yearFrom: number(params.get('yearFrom'), { min: 1, max: 9999, integer: true }),
    yearTo: number(params.get('yearTo'), { min: 1, max: 9999, integer: true }),
    authorId: number(params.get('authorId'), { min: 1, max: 2147483647, integer: true }),
    page: number(params.get('page'), { min: 2, max: 2147483647, integer: true }),
  };
  return Object.fromEntries(Object.entries(state).filter(([, v]) => v !== undefined)) as BrowseState;
}

/** The state as query parameters, in a fixed order; `keep` carries others along (a search's text). */
export function browseSearchParams(state: BrowseState, keep: Record<string, string> = {}): URLSearchParams {
  const params = new URLSearchParams(keep);
  if (state.sort) params.set('sort', state.sort);
  for (const key of FILTER_KEYS) {
    const value = state[key];
    if (value === undefined || value === false) continue;
    params.set(key, value === true ? '1' : String(value));
  }
  if (state.page && state.page > 1) params.set('page', String(state.page));
  return params;
}

export const hasFilters = (state: BrowseState) => FILTER_KEYS.some((key) => state[key] !== undefined);

/** The call's query: the state's filters and sort, with the page and its size. */
export function browseQuery(state: BrowseState, pageSize: number) {
  const { page = 1, ...rest } = state;
  return { ...rest, pageNumber: page, pageSize };
}
