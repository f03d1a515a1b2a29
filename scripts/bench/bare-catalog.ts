// The bench's baseline: the public catalog calls as a bare Fastify server over node-postgres, with
// no plugins, no ORM and no schema serializer, running the very SQL our repository runs
// (catalog-queries.ts) and shaping rows with the same pure functions, so its bodies are byte for
// byte ours. It sends the same headers too (the API's security headers, the cache policy and an
// ETag), set in one hook the cheapest way: the same answer, with nothing else around it. Our
// throughput divided by its throughput is the cost of how we build that answer.

import { normalizeForSearch } from '@bookshop/rules/browse';
import Fastify from 'fastify';
import pg from 'pg';
// The very statements the repository runs, named as the repository's module names them.
import * as catalogSql from '../../api/src/modules/catalog/catalog-queries.ts';
import {
  HOME_LIST_SIZE,
  RECOMMENDED_PER_CATEGORY,
  SEARCH_LIMIT,
  searchTerms,
  toCard,
  toDetail,
} from '../../api/src/modules/catalog/catalog-service.ts';
import { bodyTag } from '../../api/src/plugins/entity-tags.ts';
import { preparedStatement } from '../../api/src/plugins/prisma.ts';
import { apiSecurityHeaders } from '../../api/src/plugins/security-headers.ts';
import { bareCheckout, bareSession } from './bare-checkout.ts';
import { bareMix } from './bare-mix.ts';

/** With `jwtSecret`, the server also answers checkout (bare-checkout.ts) and the rest of issue 32's mix (bare-mix.ts). */
export function bareCatalog(databaseUrl: string, poolSize: number, onQuery: (sql: string) => void = () => {}, jwtSecret?: string) {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize });
  pool.on('error', () => {}); // an idle client's error must not end the bench
  const query = async <T extends pg.QueryResultRow>(sql: string, values: unknown[] = []) => {
    onQuery(sql);
    return (await pool.query<T>(preparedStatement(sql, values))).rows;
  };
  const app = Fastify();
  app.addHook('onClose', () => pool.end());
  const base = '/api/public/book-copy';
  const securityHeaders = apiSecurityHeaders(false);
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.headers(securityHeaders);
    if (reply.statusCode === 200 && typeof payload === 'string' && request.url.startsWith(base)) {
      // The cache policy of routes/public/book-copy.ts: live stock revalidates, Recommended is personal
      // when signed in, the rest keeps a minute.
      if (request.url.startsWith(`${base}/by-id/`)) reply.header('cache-control', 'no-cache');
      else if (request.url === `${base}/recommended/`) reply.header('cache-control', 'private, max-age=60').header('vary', 'cookie');
      else reply.header('cache-control', 'public, max-age=60');
      reply.header('etag', bodyTag(payload));
    }
    done(null, payload);
  });
  if (jwtSecret) {
    bareCheckout(app, pool, jwtSecret, onQuery);
    bareMix(app, pool, jwtSecret, onQuery);
  }
  const signedIn = jwtSecret ? bareSession(pool, jwtSecret, onQuery) : async () => null;

  app.get(`${base}/types/`, async () => ({ data: await query(catalogSql.TYPES_SQL) }));
  app.get<{ Params: { spec: string } }>(`${base}/by-type/:spec`, async (request) => {
    const [type = '', page, size] = request.params.spec.split(',').map(decodeURIComponent) as [string, string, string];
    const [head, ...rows] = await query<catalogSql.CardRow & { typeId: number | null; total: number }>(catalogSql.CATEGORY_PAGE_SQL, [
      type,
      (Number(page) - 1) * Number(size),
      Number(page) * Number(size),
    ]);
    if (head?.typeId == null) throw new Error('no such category');
    return { data: { booksCopies: rows.map(toCard), totalPages: Math.ceil(Number(head.total) / Number(size)) } };
  });
  app.get<{ Params: { id: string } }>(`${base}/by-id/:id`, async (request) => {
    const [row] = await query<catalogSql.DetailRow>(catalogSql.DETAIL_SQL, [Number(request.params.id)]);
    if (!row) throw new Error('no such copy');
    return { data: toDetail(row) };
  });
  app.get<{ Params: { name: string } }>(`${base}/by-name/:name`, async (request) => {
    const terms = searchTerms(normalizeForSearch(request.params.name));
    const rows = await query<catalogSql.DetailRow>(catalogSql.searchSql(terms), catalogSql.searchValues(terms, SEARCH_LIMIT));
    return { data: rows.map(toDetail) };
  });
  const homeList = (path: string, sql: string, shape: (row: catalogSql.DetailRow) => unknown) =>
    app.get(`${base}/${path}/`, async () => ({ data: (await query<catalogSql.DetailRow>(sql, [path, HOME_LIST_SIZE])).map(shape) }));
  homeList('new-releases', catalogSql.HOME_CARDS_SQL, toCard);
  homeList('best-sellers', catalogSql.HOME_CARDS_SQL, toCard);
  homeList('top-rated', catalogSql.HOME_DETAILS_SQL, toDetail);
  app.get(`${base}/recommended/`, async (request) => {
    const day = new Date().toISOString().slice(0, 10);
    // A signed-in client's list leans to the categories they buy from, as ours does (catalog-service.ts).
    const clientId = await signedIn('client', request.headers.cookie);
    const favourites = clientId === null ? [] : await query<{ typeId: number }>(catalogSql.PURCHASED_CATEGORIES_SQL, [clientId]);
    const quota = favourites.map((_, i) => [6, 4, 3][i] ?? RECOMMENDED_PER_CATEGORY);
    const rows = await query<catalogSql.DetailRow>(catalogSql.RECOMMENDED_SQL, [
      favourites.map((f) => f.typeId),
      quota,
      RECOMMENDED_PER_CATEGORY,
      day,
      HOME_LIST_SIZE,
    ]);
    return { data: rows.map(toDetail) };
  });
  return app;
}
