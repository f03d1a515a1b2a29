import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import { catalogKeys } from '../../../lib/query-keys';

export const categoryPageQuery = (type: string, pageNumber: number, pageSize: number) =>
  queryOptions({
    queryKey: catalogKeys.category(type, pageNumber, pageSize),
    queryFn: () =>
      unwrap(api.GET('/api/public/book-copy/by-type/{type},{pageNumber},{pageSize}', { params: { path: { type, pageNumber, pageSize } } })),
  });

export const useCategoryPage = (type: string, pageNumber: number, pageSize: number) =>
  useQuery({ ...categoryPageQuery(type, pageNumber, pageSize), placeholderData: keepPreviousData });
