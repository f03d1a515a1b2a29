// A page of buyers' reviews for the Admin, hidden ones too, newest first (beyond the spec).
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { ADMIN_TABLE_PAGE_SIZE } from '../../../lib/constants';
import { employeePageQuery } from './employee-page-query';
import { backofficeKeys } from './query-keys';

export const reviewsPageQuery = (pageNumber: number) =>
  employeePageQuery(backofficeKeys.reviews.page(pageNumber), () =>
    api.GET('/api/employee/review/{pageNumber},{pageSize}', { params: { path: { pageNumber, pageSize: ADMIN_TABLE_PAGE_SIZE } } }),
  );

export const useReviewsPage = (page: number) => useQuery(reviewsPageQuery(page));
