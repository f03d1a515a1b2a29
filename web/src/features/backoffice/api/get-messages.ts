// A page of Client Messages.
import { useQuery } from '@tanstack/react-query';
import { api, withSession } from '../../../api/client';
import { allClientsPageQuery } from './all-clients-page';

export const useMessagesPage = (pageNumber: number) =>
  useQuery(
    allClientsPageQuery('messages', pageNumber, (query) =>
      withSession('Employee', () => api.GET('/api/employee/contact', { params: { query } })),
    ),
  );
