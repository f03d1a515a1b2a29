// A page of the e-mails the shop gave up on (Admin, beyond the spec).
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { ADMIN_TABLE_PAGE_SIZE } from '../../../lib/constants';
import { employeePageQuery } from './employee-page-query';
import { backofficeKeys } from './query-keys';

export const deadLettersQuery = (pageNumber: number) =>
  employeePageQuery(backofficeKeys.mail.page(pageNumber), () =>
    api.GET('/api/employee/mail/dead-letters', { params: { query: { pageNumber, pageSize: ADMIN_TABLE_PAGE_SIZE } } }),
  );

export const useDeadLetters = (page: number) => useQuery(deadLettersQuery(page));
