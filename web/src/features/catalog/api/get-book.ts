import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import { catalogKeys } from '../../../lib/query-keys';

export const bookQuery = (id: number) =>
  queryOptions({
    queryKey: catalogKeys.book(id),
    queryFn: () => unwrap(api.GET('/api/public/book-copy/by-id/{id}', { params: { path: { id } } })),
  });

export const useBook = (id: number | null) => useQuery({ ...bookQuery(id ?? 0), enabled: id !== null });
export type BookDetail = NonNullable<ReturnType<typeof useBook>['data']>;
