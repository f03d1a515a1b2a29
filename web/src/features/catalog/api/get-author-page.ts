import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import { catalogKeys } from '../../../lib/query-keys';

export const authorPageQuery = (id: number, pageNumber: number, pageSize: number) =>
  queryOptions({
    queryKey: catalogKeys.author(id, pageNumber, pageSize),
    queryFn: () => unwrap(api.GET('/api/public/authors/{id}', { params: { path: { id }, query: { pageNumber, pageSize } } })),
  });

/** Null `id` (an address that names no author) fetches nothing. */
export const useAuthorPage = (id: number | null, pageNumber: number, pageSize: number) =>
  useQuery({ ...authorPageQuery(id ?? 0, pageNumber, pageSize), enabled: id !== null, placeholderData: keepPreviousData });
