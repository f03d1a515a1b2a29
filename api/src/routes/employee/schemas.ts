import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { type Static, Type } from 'typebox';
import { type OptionalPaging, Paging, responses } from '../../schemas/common.ts';

/**
 * A paged back-office list as the spec writes them all: `<prefix>/:pageNumber,:pageSize` (or the `url`
 * given), answering `{ <list>: rows, totalPages }`. `list` names that key and the schema of its rows,
 * as `{ authors: 'Author' }`.
 */
export function pagedListRoute(
  app: Parameters<FastifyPluginAsyncTypebox>[0],
  [operationId, summary, url = '/:pageNumber,:pageSize']: [string, string, string?],
  list: Record<string, string>,
  page: (pageNumber: number, pageSize: number) => Promise<unknown>,
): void {
  const [[key, item]] = Object.entries(list) as [[string, string]];
  app.get(
    url,
    {
      schema: {
        operationId,
        summary,
        params: Type.Object(Paging),
        response: responses(Type.Object({ [key]: Type.Array(Type.Ref(item)), totalPages: Type.Integer() }), 400, 401, 403),
      },
    },
    async (request) => ({ data: (await page(request.params.pageNumber, request.params.pageSize)) as never }),
  );
}

/**
 * Lists whose spec path has no page parameters (All Clients, Client Messages). Called as the spec
 * writes them they answer the bare array the spec's screens read, newest first, at most
 * UNPAGED_LIST_CAP rows; with either parameter they answer one page and totalPages, as the back-office reads them.
 * The querystring is OptionalPaging (schemas/common.ts).
 */
export type OptionalPagingQuery = Static<typeof OptionalPaging>;
export const UNPAGED_LIST_CAP = 1000;
export const DEFAULT_PAGE_SIZE = 20;
/** Answers the spec's unpaged form (a bare, capped array with its count in headers) or one page. */
export async function optionalPage<Key extends string, Row>(
  query: OptionalPagingQuery,
  reply: FastifyReply,
  key: Key,
  load: (skip: number, take: number) => Promise<{ total: number; rows: Row[] }>,
): Promise<Row[] | ({ [K in Key]: Row[] } & { totalPages: number })> {
  if (query.pageNumber === undefined && query.pageSize === undefined) {
    const { total, rows } = await load(0, UNPAGED_LIST_CAP);
    reply.header('x-total-count', String(total));
    if (total > rows.length) reply.header('x-list-truncated', 'true');
    return rows;
  }
  const pageNumber = query.pageNumber ?? 1;
  const pageSize = query.pageSize ?? DEFAULT_PAGE_SIZE;
  const { total, rows } = await load((pageNumber - 1) * pageSize, pageSize);
  return { [key]: rows, totalPages: Math.ceil(total / pageSize) } as { [K in Key]: Row[] } & { totalPages: number };
}

export const OPTIONAL_PAGING_DESCRIPTION =
  `Without pageNumber and pageSize: the bare array, newest first, at most ${UNPAGED_LIST_CAP} rows; ` +
  'the header X-Total-Count gives the number of rows in all, and X-List-Truncated: true says the cap was reached. ' +
  `With either parameter: one page (pageSize defaults to ${DEFAULT_PAGE_SIZE}) and totalPages.`;
