// The shape of a back-office read that pages or filters: the query options every such endpoint file exports.
import { keepPreviousData, type QueryKey, queryOptions } from '@tanstack/react-query';
import { type Result, withSession } from '../../../api/client';

/**
 * A read made with the employee's session, whose previous answer stays on screen while the next
 * one (another page, other filters) loads.
 */
export const employeePageQuery = <R extends Result, Key extends QueryKey>(queryKey: Key, call: () => Promise<R>) =>
  queryOptions({ queryKey, queryFn: () => withSession('Employee', call), placeholderData: keepPreviousData });
