// A page of the audit log (Admin, beyond the spec), newest first, as filtered; `before` pages back.
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../api/client';
import type { paths } from '../../../api/schema';
import { employeePageQuery } from './employee-page-query';
import { backofficeKeys } from './query-keys';

export type AuditFilters = NonNullable<paths['/api/employee/audit-log']['get']['parameters']['query']>;

export const auditLogQuery = (filters: AuditFilters) =>
  employeePageQuery(backofficeKeys.auditLog.detail(filters), () => api.GET('/api/employee/audit-log', { params: { query: filters } }));

export const useAuditLog = (filters: AuditFilters) => useQuery(auditLogQuery(filters));
