import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import { catalogKeys } from '../../../lib/query-keys';

export const typesQuery = queryOptions({
  queryKey: catalogKeys.types,
  queryFn: () => unwrap(api.GET('/api/public/book-copy/types/')),
  staleTime: 60 * 60 * 1000,
});

export const useBookTypes = () => useQuery(typesQuery);
