import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyContextConfig, FastifyReply, FastifyRequest } from 'fastify';
import { type Static, Type } from 'typebox';
import { refuse } from '../../lib/refusals.ts';
import { IfMatchHeader } from '../../schemas/backoffice-catalog.ts';
import { type OptionalPaging, Paging, PositiveInt, responses } from '../../schemas/common.ts';

type RoutesApp = Parameters<FastifyPluginAsyncTypebox>[0];
/** A route's operationId and summary, and its path when it is not the shape's usual one. */
type RouteNames = [operationId: string, summary: string, url?: string];

/**
 * A paged back-office list as the spec writes them all: `<prefix>/:pageNumber,:pageSize` (or the `url`
 * given), answering `{ <list>: rows, totalPages }`. `list` names that key and the schema of its rows,
 * as `{ authors: 'Author' }`.
 */
export function pagedListRoute(
  app: RoutesApp,
  [operationId, summary, url = '/:pageNumber,:pageSize']: RouteNames,
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
 * The version a save says it read (`If-Match: "<version>"`, a weak `W/` one too); undefined when the
 * header is absent or `*` (any version). Anything else is refused, as no version of the row matches it.
 */
export function versionRead(request: FastifyRequest): number | undefined {
  const ifMatch = request.headers['if-match'];
  if (ifMatch === undefined || ifMatch.trim() === '*') return undefined;
  const match = /^\s*(?:W\/)?"(\d{1,9})"\s*$/.exec(ifMatch);
  if (!match) throw refuse.form('If-Match must be the ETag the row was read with, such as "3".');
  return Number(match[1]);
}

/** Gives a versioned row's version as its ETag, the one a save sends back as If-Match. */
export function tagVersion<Row>(reply: FastifyReply, row: Row): Row {
  const { version } = row as { version?: unknown };
  if (typeof version === 'number') reply.header('etag', `"${version}"`);
  return row;
}

/**
 * One row by its id: `GET <prefix>/by-id/:id` (or the `url` given) answering `{ data: row }`, the row's
 * schema the component `item`, and a versioned row's version as its ETag. `find` refuses an id that
 * names no row (404).
 */
export function getByIdRoute(
  app: RoutesApp,
  [operationId, summary, url = '/by-id/:id']: RouteNames,
  item: string,
  find: (id: number) => Promise<unknown>,
): void {
  app.get(
    url,
    {
      schema: {
        operationId,
        summary,
        params: Type.Object({ id: PositiveInt }),
        response: responses(Type.Ref(item), 400, 401, 403, 404),
      },
    },
    async (request, reply) => ({ data: tagVersion(reply, await find(request.params.id)) }),
  );
}

/**
 * What a route asks beyond its subtree's gate (such as a recent second factor, or the version of the
 * row its caller read), and the note that says so.
 */
interface RouteExtras {
  config?: FastifyContextConfig;
  description: string;
  /** Takes `If-Match`, the row's version as read (which `remove` reads with versionRead), and may answer 412. */
  versioned?: boolean;
}

/**
 * A delete by id: `DELETE <prefix>/:id` (or the `url` given) answering `{ data: true }` once `remove` is
 * done. `refusals` lists the statuses `remove` may answer instead, beyond the 400, 401 and 403 every
 * back-office route can.
 */
export function deleteByIdRoute(
  app: RoutesApp,
  [operationId, summary, url = '/:id']: RouteNames,
  refusals: number[],
  remove: (id: number, request: FastifyRequest) => Promise<unknown>,
  extras?: RouteExtras,
): void {
  app.delete(
    url,
    {
      ...(extras?.config && { config: extras.config }),
      schema: {
        operationId,
        summary,
        ...(extras && { description: extras.description }),
        ...(extras?.versioned && { headers: IfMatchHeader }),
        params: Type.Object({ id: PositiveInt }),
        response: responses(Type.Boolean(), 400, 401, 403, ...refusals, ...(extras?.versioned ? [412] : [])),
      },
    },
    async (request) => {
      await remove(request.params.id, request);
      return { data: true };
    },
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
