// Paging plus search for the back-office tables: numeric text searches by id, other text by name
// (when the resource has a name search); empty text reloads the list (spec 5).
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError } from '../../api/client';
import type { useNotice } from '../../components/notice';
import { ADMIN_TABLE_PAGE_SIZE } from '../../lib/constants';
import { failureReason } from '../../lib/failure-reason';
import { type BackofficeResource, backofficeKeys } from './query-keys';

export function useAdminList<Row>(options: {
  key: BackofficeResource;
  page: (pageNumber: number, pageSize: number) => Promise<{ rows: Row[]; totalPages: number }>;
  byId: (id: number) => Promise<Row>;
  byName?: (name: string) => Promise<Row[]>;
  /** The screen's notice, and what it says when a search finds nothing (the spec's 'No author found.'). */
  notify: ReturnType<typeof useNotice>[1];
  notFound: string;
}) {
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [found, setFound] = useState<Row[] | null>(null);
  const [lastSearch, setLastSearch] = useState('');
  const list = useQuery({
    queryKey: backofficeKeys[options.key].page(page),
    queryFn: () => options.page(page, ADMIN_TABLE_PAGE_SIZE),
    placeholderData: keepPreviousData,
  });

  /** Returns false when nothing matched. */
  const search = async (text: string): Promise<boolean> => {
    const q = text.trim();
    setLastSearch(q);
    if (!q) {
      setFound(null);
      return true;
    }
    try {
      const rows = /^\d+$/.test(q) ? [await options.byId(Number(q))] : options.byName ? await options.byName(q) : [];
      setFound(rows);
      return rows.length > 0;
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) {
        setFound([]);
        return false;
      }
      throw error;
    }
  };

  /** After a write: the pages refetch, and a search on screen runs again, so the row just saved stays in view. */
  const reload = async () => {
    await queryClient.invalidateQueries({ queryKey: backofficeKeys[options.key].all });
    if (found !== null) await search(lastSearch).catch(() => setFound(null));
  };

  return {
    rows: found ?? list.data?.rows ?? [],
    searching: found !== null,
    isPending: list.isPending,
    page,
    totalPages: list.data?.totalPages ?? 1,
    setPage,
    search,
    reset: () => setFound(null),
    /** A search that says when nothing matched, and tells a failed search from an empty one. */
    searchAndTell: async (text: string) => {
      try {
        if (!(await search(text))) options.notify(options.notFound, 'error');
      } catch (error) {
        options.notify('The search failed.', 'error', failureReason(error));
      }
    },
    /** A write with the spec's notices: on success its message and a reload, on failure its message and the server's reason. */
    write: async (call: () => Promise<unknown>, messages: { success: string; failure: string }) => {
      try {
        await call();
        options.notify(messages.success);
        await reload();
        return true;
      } catch (error) {
        options.notify(messages.failure, 'error', failureReason(error));
        return false;
      }
    },
  };
}
