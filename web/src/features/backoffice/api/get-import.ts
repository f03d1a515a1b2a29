// One import job: its dry run, and while it runs, its progress, read every second until it ends.
// When it ends, the tables it wrote to are refreshed.
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api, withSession } from '../../../api/client';
import { backofficeKeys } from './query-keys';

const PROGRESS_POLL_MS = 1000;

export const importQuery = (id: number) =>
  queryOptions({
    queryKey: backofficeKeys.imports.detail(id),
    queryFn: () => withSession('Employee', () => api.GET('/api/employee/catalog/import/{id}', { params: { path: { id } } })),
    refetchInterval: (query) => (query.state.data?.status === 'running' ? PROGRESS_POLL_MS : false),
  });

export function useImport(id: number | null) {
  const queryClient = useQueryClient();
  const job = useQuery({ ...importQuery(id ?? 0), enabled: id !== null });
  const done = job.data?.status === 'done';
  useEffect(() => {
    if (!done) return;
    for (const resource of ['books', 'copies', 'authors', 'lowStock', 'dashboard'] as const) {
      void queryClient.invalidateQueries({ queryKey: backofficeKeys[resource].all });
    }
  }, [done, queryClient]);
  return job;
}
