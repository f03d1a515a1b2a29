// A page of buyers' reviews for the Admin, hidden ones too, newest first (beyond the spec).
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, withSession } from '../../../api/client';
import { ADMIN_TABLE_PAGE_SIZE } from '../../../lib/constants';
import { backofficeKeys } from './query-keys';

export const reviewsPageQuery = (pageNumber: number) =>
  queryOptions({
    queryKey: backofficeKeys.reviews.page(pageNumber),
    queryFn: () =>
      withSession('Employee', () =>
        api.GET('/api/employee/review/{pageNumber},{pageSize}', { params: { path: { pageNumber, pageSize: ADMIN_TABLE_PAGE_SIZE } } }),
      ),
    placeholderData: keepPreviousData,
  });

export const useReviewsPage = (page: number) => useQuery(reviewsPageQuery(page));
