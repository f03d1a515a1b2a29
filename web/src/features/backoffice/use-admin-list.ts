// Paging plus search for the back-office tables: numeric text searches by id, other text by name
// (when the resource has a name search); empty text reloads the list (spec 5).
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError } from '../../api/client';
import { ADMIN_TABLE_PAGE_SIZE } from '../../lib/constants';
import { type BackofficeResource, backofficeKeys } from './query-keys';

export function useAdminList<Row>(options: {
  key: BackofficeResource;
  page: (pageNumber: number, pageSize: number) => Promise<{ rows: Row[]; totalPages: number }>;
  byId: (id: number) => Promise<Row>;
  byName?: (name: string) => Promise<Row[]>;
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

  return {
    rows: found ?? list.data?.rows ?? [],
    searching: found !== null,
    isPending: list.isPending,
    page,
    totalPages: list.data?.totalPages ?? 1,
    setPage,
    search,
    reset: () => setFound(null),
    /** After a write: the pages refetch, and a search on screen runs again, so the row just saved stays in view. */
    reload: async () => {
      await queryClient.invalidateQueries({ queryKey: backofficeKeys[options.key].all });
      if (found !== null) await search(lastSearch).catch(() => setFound(null));
    },
  };
}
