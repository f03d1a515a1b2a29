import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import { catalogKeys } from '../../../lib/query-keys';

export const searchQuery = (text: string) =>
  queryOptions({
    queryKey: catalogKeys.search(text),
    queryFn: () => unwrap(api.GET('/api/public/book-copy/by-name/{name}', { params: { path: { name: text } } })),
  });

export const useSearchBooks = (text: string) => useQuery({ ...searchQuery(text), enabled: text.trim() !== '' });
