// Paging plus search for the back-office tables (spec 5): a search shows the rows found instead of
// the page; empty text goes back to the pages. Both are queries under the resource's key, so the
// mutation that writes a row refreshes whichever the screen shows. The page and the search's text are
// kept in the address, so a reload or Back comes back to the same rows.
import { keepPreviousData, type UseQueryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import type { useNotice } from '../../components/notice';
import { failureReason } from '../../lib/failure-reason';
import { usePageInAddress, useTextInAddress } from '../../lib/use-address-state';
import type { BackofficeResource } from './api/query-keys';
import type { TablePage } from './api/table-queries';

type Options<Data> = UseQueryOptions<Data, Error, Data, readonly unknown[]>;

export function useAdminList<Row>(options: {
  resource: BackofficeResource;
  pageQuery: (page: number) => Options<TablePage<Row>>;
  searchQuery: (text: string) => Options<Row[]>;
  /** The screen's notice, and what it says when a search finds nothing (the spec's 'No author found.'). */
  notify: ReturnType<typeof useNotice>[1];
  notFound: string;
}) {
  const queryClient = useQueryClient();
  const [page, setPage] = usePageInAddress();
  /** The text of the search on screen; null while the table shows its pages. */
  const [searchText, setSearchText] = useTextInAddress('q');
  const list = useQuery({ ...options.pageQuery(page), placeholderData: keepPreviousData });
  // The search fetches its rows itself and a write refreshes them, so showing them fetches nothing more.
  const found = useQuery({ ...options.searchQuery(searchText ?? ''), enabled: searchText !== null, staleTime: Number.POSITIVE_INFINITY });

  const searching = searchText !== null;
  // What the table shows: the search's rows while there is one (a reload of its address included), else the page's.
  const shown = searching ? found : list;

  return {
    rows: (searching ? found.data : list.data?.rows) ?? [],
    searching,
    searchText,
    // Loading until what is shown has answered: a search opened from the address is not "not found" meanwhile.
    isPending: shown.isPending,
    /**
     * The rows could not be loaded (a refusal, the network): the screen says so with a Retry, never
     * the spec's 'No author found.', which is only ever said of an answer that was empty.
     */
    // A refresh that fails with rows already on screen keeps them: they are what was last loaded.
    loadFailure: shown.isError && !shown.data ? { error: shown.error, retry: () => void shown.refetch() } : null,
    page,
    totalPages: list.data?.totalPages,
    setPage,
    reset: () => setSearchText(null),
    /** A search that says when nothing matched, and tells a failed search from an empty one. */
    searchAndTell: async (text: string) => {
      const q = text.trim();
      if (!q) return setSearchText(null);
      try {
        // A search the user asks for always asks the server, even when the same text is cached.
        const rows = await queryClient.fetchQuery({ ...options.searchQuery(q), staleTime: 0 });
        setSearchText(q);
        if (!rows.length) options.notify(options.notFound, 'error');
      } catch (error) {
        options.notify('The search failed.', 'error', failureReason(error));
      }
    },
    /**
     * A write with the spec's notices: its message on success, once the rows on screen have been
     * fetched again (the write's mutation waits for that: useBackofficeMutation), so an edited row
     * closes showing what was saved; on failure its message and the server's reason.
     */
    write: async (call: () => Promise<unknown>, messages: { success: string; failure: string }) => {
      try {
        await call();
        options.notify(messages.success);
        return true;
      } catch (error) {
        options.notify(messages.failure, 'error', failureReason(error));
        return false;
      }
    },
  };
}

/** What a back-office list screen reads and does: its rows, their load and its writes. */
export type AdminList<Row> = ReturnType<typeof useAdminList<Row>>;
