// The reads of a back-office table (useAdminList): a page of rows, and spec 5's search by id or name.
import { isRowId } from '@bookshop/rules';
import { queryOptions } from '@tanstack/react-query';
import { isNotFound } from '../../../api/client';
import { ADMIN_TABLE_PAGE_SIZE } from '../../../lib/constants';
import { type BackofficeResource, backofficeKeys } from './query-keys';

export interface TablePage<Row> {
  rows: Row[];
  totalPages: number;
}

/** Widened, so that one table hook takes the queries of any resource. */
const tableKey = (key: readonly unknown[]): readonly unknown[] => key;

/**
 * A table's two reads, from its endpoints: `page` fetches one page of ADMIN_TABLE_PAGE_SIZE rows,
 * which its answer holds under `rowsKey`; a search of digits looks a row up `byId` (none found is
 * an empty result, not an error), other text searches `byName` where the resource has one.
 */
export function tableQueries<Row, RowsKey extends string>(
  resource: BackofficeResource,
  rowsKey: RowsKey,
  endpoints: {
    page: (path: { pageNumber: number; pageSize: number }) => Promise<Record<RowsKey, Row[]> & { totalPages: number }>;
    byId: (id: number) => Promise<Row>;
    byName?: (name: string) => Promise<Row[]>;
  },
) {
  const fetchPage = async (pageNumber: number): Promise<TablePage<Row>> => {
    const page = await endpoints.page({ pageNumber, pageSize: ADMIN_TABLE_PAGE_SIZE });
    return { rows: page[rowsKey], totalPages: page.totalPages };
  };
  const findRows = async (text: string): Promise<Row[]> => {
    if (!/^\d+$/.test(text)) return endpoints.byName ? endpoints.byName(text) : [];
    // "0", or a number as long as an ISBN: no row has that id, and the API refuses to look (400).
    const id = Number(text);
    if (!isRowId(id)) return [];
    try {
      return [await endpoints.byId(id)];
    } catch (error) {
      if (isNotFound(error)) return [];
      throw error;
    }
  };
  return {
    resource,
    pageQuery: (pageNumber: number) =>
      queryOptions({
        queryKey: tableKey(backofficeKeys[resource].page(pageNumber)),
        queryFn: () => fetchPage(pageNumber),
      }),
    // One request per search, as the user asked for it: a failure is told at once, not after retries.
    searchQuery: (text: string) =>
      queryOptions({ queryKey: tableKey(backofficeKeys[resource].search(text)), queryFn: () => findRows(text), retry: false }),
  };
}
