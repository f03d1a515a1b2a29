// The bare baseline of issue 32's mix: every call the mix sends that bare-catalog.ts and
// bare-checkout.ts do not answer yet, on the same bare Fastify + node-postgres server, with the SQL
// the answer needs at minimum. The catalog's browse calls run our very statements and shaping (the
// catalog service over a bare SqlReader: one prepared statement each, no plugin around it); the
// signed-in calls check the session as our auth plugin does (bare-checkout.ts's bareSession, and the
// employee's role read fresh, with our statement); the cart changes, the orders page, the dashboard's
// totals and Low Stock run our statements too (Low Stock: its threshold, then its page and its count
// side by side, as ours); the import checks a file with one lookup and writes it with one UPDATE in a
// transaction that locks its copies first.
import { ORDER_LINES_MAX } from '@bookshop/rules';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { ADD_TO_CART_SQL, REMOVE_CART_LINE_SQL } from '../../api/src/modules/cart/cart-repository.ts';
import { catalogRepository } from '../../api/src/modules/catalog/catalog-repository.ts';
import { catalogService } from '../../api/src/modules/catalog/catalog-service.ts';
import { lowStockPage } from '../../api/src/modules/catalog-admin/low-stock.ts';
import { BACKOFFICE_ORDERS_PAGE_SQL, type BackofficeOrderRow } from '../../api/src/modules/orders/order-queries.ts';
import { toBackofficeOrder } from '../../api/src/modules/orders/order-service.ts';
import { DASHBOARD_TOTALS_SQL } from '../../api/src/modules/reports/dashboard-repository.ts';
import { EMPLOYEE_ROLE_SQL } from '../../api/src/modules/sessions/session-repository.ts';
import { preparedStatement } from '../../api/src/plugins/prisma.ts';
import { bareSession } from './bare-checkout.ts';

type Query = Record<string, string | undefined>;
const numberOr = (value: string | undefined) => (value === undefined ? undefined : Number(value));
const browseOptions = (q: Query) => ({
  pageNumber: Number(q.pageNumber ?? 1),
  pageSize: Number(q.pageSize ?? 15),
  sort: (q.sort ?? 'relevance') as 'relevance',
  priceMin: numberOr(q.priceMin),
  priceMax: numberOr(q.priceMax),
  inStock: q.inStock === 'true' || undefined,
  minRating: numberOr(q.minRating),
  yearFrom: numberOr(q.yearFrom),
  yearTo: numberOr(q.yearTo),
  authorId: numberOr(q.authorId),
});

// The ISBNs as the column's own type (char(13)), so that its unique index serves the lookup.
const IMPORT_LOOKUP_SQL = `
  SELECT b.isbn13, c.id, c.price::text AS price, c.quantity, c.is_available AS "isAvailable"
  FROM books b JOIN LATERAL (SELECT * FROM book_copies WHERE book_id = b.id ORDER BY id LIMIT 1) c ON true
  WHERE b.isbn13 = ANY($1::char(13)[])`;
const IMPORT_WRITE_SQL = `
  WITH locked AS (SELECT id FROM book_copies WHERE id = ANY($1::int[]) ORDER BY id FOR UPDATE)
  UPDATE book_copies c SET price = f.price, quantity = f.quantity, is_available = f.available
  FROM unnest($1::int[], $2::numeric[], $3::int[], $4::bool[]) AS f(id, price, quantity, available)
  WHERE c.id = f.id AND c.id IN (SELECT id FROM locked)`;

export function bareMix(app: FastifyInstance, pool: pg.Pool, jwtSecret: string, onQuery: (sql: string) => void) {
  const query = async <T extends pg.QueryResultRow>(sql: string, values: unknown[] = [], varies = false) => {
    onQuery(sql);
    return (await pool.query<T>(preparedStatement(sql, values, varies))).rows;
  };
  const reader = { query: (sql: string, values?: unknown[], varies?: boolean) => query(sql, values, varies) as never };
  const catalog = catalogService(catalogRepository(reader));
  const signedIn = bareSession(pool, jwtSecret, onQuery);
  const base = '/api/public/book-copy';

  app.get<{ Params: { type: string }; Querystring: Query }>(`${base}/browse/:type`, async (request) => ({
    data: await catalog.browseCategory(request.params.type, browseOptions(request.query)),
  }));
  app.get<{ Querystring: Query }>(`${base}/search/`, async (request) => ({
    data: await catalog.browseSearch(request.query.text ?? '', browseOptions(request.query)),
  }));
  app.get<{ Querystring: Query }>(`${base}/suggestions/`, async (request) => ({ data: await catalog.suggest(request.query.text ?? '') }));

  app.post<{ Params: { copyId: string } }>('/api/client/cart/:copyId', async (request, reply) => {
    const clientId = await signedIn('client', request.headers.cookie);
    if (clientId === null) return reply.code(401).send();
    const [line] = await query<{ id: number }>(ADD_TO_CART_SQL, [clientId, Number(request.params.copyId), ORDER_LINES_MAX]);
    return line ? { data: line.id } : reply.code(409).send();
  });
  app.delete<{ Params: { lineId: string } }>('/api/client/cart/:lineId', async (request, reply) => {
    const clientId = await signedIn('client', request.headers.cookie);
    if (clientId === null) return reply.code(401).send();
    await query(REMOVE_CART_LINE_SQL, [Number(request.params.lineId), clientId]);
    return { data: true };
  });

  /** An employee's call: the session, then the role read fresh (a changed role loses access at once). */
  const staff = async (cookie: string | undefined) => {
    const employeeId = await signedIn('employee', cookie);
    if (employeeId === null) return null;
    const [employee] = await query<{ role: string }>(EMPLOYEE_ROLE_SQL, [employeeId]);
    return employee ? employeeId : null;
  };
  app.get<{ Params: { page: string } }>('/api/employee/order/:page', async (request, reply) => {
    if ((await staff(request.headers.cookie)) === null) return reply.code(401).send();
    const [pageNumber, pageSize] = request.params.page.split(',').map(Number) as [number, number];
    // Our statement: one row with the count and no order when the page is past the end.
    const rows = await query<{ total: number } & BackofficeOrderRow>(BACKOFFICE_ORDERS_PAGE_SQL, [(pageNumber - 1) * pageSize, pageSize]);
    return {
      data: {
        // Shaped by our own function (the cover of a book without an image, each line's total), as ours is.
        orders: rows.flatMap(({ total: _total, ...order }) => (order.id === null ? [] : [toBackofficeOrder(order)])),
        totalPages: Math.ceil((rows[0]?.total ?? 0) / pageSize),
      },
    };
  });
  app.get('/api/employee/statistics/', async (request, reply) => {
    if ((await staff(request.headers.cookie)) === null) return reply.code(401).send();
    return { data: (await query(DASHBOARD_TOTALS_SQL))[0] };
  });
  app.get('/api/employee/low-stock/', async (request, reply) => {
    if ((await staff(request.headers.cookie)) === null) return reply.code(401).send();
    return { data: await lowStockPage(reader, 1, 25) };
  });

  // The import: a dry run that looks the file's ISBNs up and keeps the plan, and a run in the
  // background that writes it in one transaction. The plan is kept in memory: the bare server is one process.
  type Planned = { id: number; price: string; quantity: number; available: boolean };
  const jobs = new Map<number, { status: string; plan: Planned[] }>();
  let lastJob = 0;
  app.addContentTypeParser('text/csv', { parseAs: 'string', bodyLimit: 10 * 1024 * 1024 }, (_request, body, done) => done(null, body));
  app.post<{ Body: string }>('/api/employee/catalog/import', async (request, reply) => {
    if ((await staff(request.headers.cookie)) === null) return reply.code(401).send();
    const [header, ...lines] = request.body.trim().split('\n');
    const columns = header!.split(',');
    const at = (name: string) => columns.indexOf(name);
    const rows = lines.map((line) => line.split(','));
    const found = await query<{ isbn13: string; id: number; price: string; quantity: number; isAvailable: boolean }>(IMPORT_LOOKUP_SQL, [
      rows.map((r) => r[at('isbn')]),
    ]);
    const byIsbn = new Map(found.map((f) => [f.isbn13, f]));
    const plan: Planned[] = [];
    for (const row of rows) {
      const copy = byIsbn.get(row[at('isbn')]!);
      const planned = { price: row[at('price')]!, quantity: Number(row[at('stock')]), available: row[at('available')] === 'true' };
      if (copy && (copy.price !== planned.price || copy.quantity !== planned.quantity || copy.isAvailable !== planned.available))
        plan.push({ id: copy.id, ...planned });
    }
    const id = ++lastJob;
    jobs.set(id, { status: 'checked', plan });
    return { data: { id, status: 'checked', rows: rows.length, changed: plan.length } };
  });
  app.post<{ Params: { id: string } }>('/api/employee/catalog/import/:id/run', async (request, reply) => {
    if ((await staff(request.headers.cookie)) === null) return reply.code(401).send();
    const job = jobs.get(Number(request.params.id));
    if (job?.status !== 'checked') return reply.code(409).send();
    job.status = 'running';
    const plan = [...job.plan].sort((a, b) => a.id - b.id);
    void (async () => {
      const db = await pool.connect();
      try {
        await db.query('BEGIN');
        onQuery(IMPORT_WRITE_SQL);
        await db.query(
          preparedStatement(IMPORT_WRITE_SQL, [
            plan.map((p) => p.id),
            plan.map((p) => p.price),
            plan.map((p) => p.quantity),
            plan.map((p) => p.available),
          ]),
        );
        await db.query('COMMIT');
        job.status = 'done';
      } catch {
        await db.query('ROLLBACK').catch(() => {});
        job.status = 'failed';
      } finally {
        db.release();
      }
    })();
    return { data: { id: Number(request.params.id), status: 'running' } };
  });
  app.get<{ Params: { id: string } }>('/api/employee/catalog/import/:id', async (request, reply) => {
    if ((await staff(request.headers.cookie)) === null) return reply.code(401).send();
    const job = jobs.get(Number(request.params.id));
    return job ? { data: { id: Number(request.params.id), status: job.status } } : reply.code(404).send();
  });
}
