import { type BrowseState, browseQuery, hasSearchWords, wantsSuggestions } from '@bookshop/rules/browse';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, unwrap } from '../../../api/client';

// Under catalogKeys.all (['catalog']), so whatever makes the catalog stale makes these stale too.
const keys = {
  category: (type: string, state: BrowseState, pageSize: number) => ['catalog', 'browse', type.toLowerCase(), state, pageSize] as const,
  search: (text: string, state: BrowseState, pageSize: number) => ['catalog', 'browse-search', text, state, pageSize] as const,
  suggestions: (text: string) => ['catalog', 'suggestions', text] as const,
};

export const browseCategoryQuery = (type: string, state: BrowseState, pageSize: number) =>
  queryOptions({
    queryKey: keys.category(type, state, pageSize),
    queryFn: ({ signal }) =>
      unwrap(api.GET('/api/public/book-copy/browse/{type}', { params: { path: { type }, query: browseQuery(state, pageSize) }, signal })),
  });
export const useBrowseCategory = (type: string, state: BrowseState, pageSize: number) =>
  useQuery({ ...browseCategoryQuery(type, state, pageSize), placeholderData: keepPreviousData });

export const useBrowseSearch = (text: string, state: BrowseState, pageSize: number) =>
  useQuery({
    queryKey: keys.search(text, state, pageSize),
    queryFn: ({ signal }) =>
      unwrap(api.GET('/api/public/book-copy/search/', { params: { query: { text, ...browseQuery(state, pageSize) } }, signal })),
    // A text with no letter or digit is refused by the call (400): nothing is asked for it.
    enabled: hasSearchWords(text),
    placeholderData: keepPreviousData,
  });
export type BrowsePage = NonNullable<ReturnType<typeof useBrowseCategory>['data']>;
export type Facets = BrowsePage['facets'];

/** Suggestions wait this long after the last keystroke (and start at SUGGEST_MIN_LETTERS letters). */
export const SUGGEST_DELAY_MS = 200;

/** `value`, once it has stayed the same for `delayMs`. */
function useDebounced<T>(value: T, delayMs: number) {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}

/**
 * Suggestions for what is typed: asked for once typing pauses, never for fewer than 2 letters or digits; a
 * request whose text is no longer wanted is aborted (react-query cancels a query nobody observes).
 */
export function useSuggestions(text: string) {
  const settled = useDebounced(text.trim(), SUGGEST_DELAY_MS);
  const enabled = wantsSuggestions(settled) && settled === text.trim();
  return useQuery({
    queryKey: keys.suggestions(settled),
    queryFn: ({ signal }) => unwrap(api.GET('/api/public/book-copy/suggestions/', { params: { query: { text: settled } }, signal })),
    enabled,
    staleTime: 60_000,
  });
}
