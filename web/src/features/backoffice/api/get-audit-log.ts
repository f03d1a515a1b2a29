// A page of the audit log (Admin, beyond the spec), newest first, as filtered; `before` pages back.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, withSession } from '../../../api/client';
import type { paths } from '../../../api/schema';
import { backofficeKeys } from './query-keys';

export type AuditFilters = NonNullable<paths['/api/employee/audit-log']['get']['parameters']['query']>;

export const auditLogQuery = (filters: AuditFilters) =>
  queryOptions({
    queryKey: backofficeKeys.auditLog.detail(filters),
    queryFn: () => withSession('Employee', () => api.GET('/api/employee/audit-log', { params: { query: filters } })),
    placeholderData: keepPreviousData,
  });

export const useAuditLog = (filters: AuditFilters) => useQuery(auditLogQuery(filters));
