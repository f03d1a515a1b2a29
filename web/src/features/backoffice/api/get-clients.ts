// A page of All Clients.
import { useQuery } from '@tanstack/react-query';
import { api, withSession } from '../../../api/client';
import { allClientsPageQuery } from './all-clients-page';

export const useClientsPage = (pageNumber: number) =>
  useQuery(
    allClientsPageQuery('clients', pageNumber, (query) =>
      withSession('Employee', () => api.GET('/api/employee/statistics/clients/', { params: { query } })),
    ),
  );
