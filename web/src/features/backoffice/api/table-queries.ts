// The shapes the back-office tables read (useAdminList): a page of rows, and a search by id or name.
import { queryOptions } from '@tanstack/react-query';
import { ApiError } from '../../../api/client';
import { type BackofficeResource, backofficeKeys } from './query-keys';

export interface TablePage<Row> {
  rows: Row[];
  totalPages: number;
}

/** Widened, so that one table hook takes the queries of any resource. */
const tableKey = (key: readonly unknown[]): readonly unknown[] => key;

export const tablePageQuery = <Row>(resource: BackofficeResource, page: number, fetchPage: (page: number) => Promise<TablePage<Row>>) =>
  queryOptions({ queryKey: tableKey(backofficeKeys[resource].page(page)), queryFn: () => fetchPage(page) });

/**
 * Spec 5's table search: digits look a row up by id (none found is an empty result, not an error),
 * other text searches by name where the resource has a name search.
 */
export const tableSearchQuery = <Row>(
  resource: BackofficeResource,
  text: string,
  lookups: { byId: (id: number) => Promise<Row>; byName?: (name: string) => Promise<Row[]> },
) =>
  queryOptions({
    queryKey: tableKey(backofficeKeys[resource].search(text)),
    queryFn: async (): Promise<Row[]> => {
      if (!/^\d+$/.test(text)) return lookups.byName ? lookups.byName(text) : [];
      try {
        return [await lookups.byId(Number(text))];
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return [];
        throw error;
      }
    },
  });
