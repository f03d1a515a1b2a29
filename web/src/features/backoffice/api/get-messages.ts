// A page of Client Messages.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, withSession } from '../../../api/client';
import { ALL_CLIENTS_PAGE_SIZE } from '../../../lib/constants';
import { onePage } from './paged';
import { backofficeKeys } from './query-keys';

export const messagesPageQuery = (pageNumber: number) =>
  queryOptions({
    queryKey: backofficeKeys.messages.page(pageNumber),
    queryFn: () =>
      onePage(
        withSession('Employee', () =>
          api.GET('/api/employee/contact', { params: { query: { pageNumber, pageSize: ALL_CLIENTS_PAGE_SIZE } } }),
        ),
      ),
    placeholderData: keepPreviousData,
  });

export const useMessagesPage = (page: number) => useQuery(messagesPageQuery(page));
