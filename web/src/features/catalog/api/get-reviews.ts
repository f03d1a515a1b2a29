import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import { REVIEWS_PAGE_SIZE } from '../../../lib/constants';
import { catalogKeys } from '../../../lib/query-keys';

export const reviewsQuery = (copyId: number, pageNumber: number) =>
  queryOptions({
    queryKey: catalogKeys.reviews(copyId, pageNumber),
    queryFn: () =>
      unwrap(
        api.GET('/api/public/book-copy/by-id/{id}/reviews', {
          params: { path: { id: copyId }, query: { pageNumber, pageSize: REVIEWS_PAGE_SIZE } },
        }),
      ),
  });

export const useReviews = (copyId: number, pageNumber: number) =>
  useQuery({ ...reviewsQuery(copyId, pageNumber), placeholderData: keepPreviousData });
