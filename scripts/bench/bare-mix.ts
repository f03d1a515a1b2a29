// The bare baseline of issue 32's mix: every call the mix sends that bare-catalog.ts and
// bare-checkout.ts do not answer yet, on the same bare Fastify + node-postgres server, with the SQL
// the answer needs at minimum. The catalog's browse calls run our very statements and shaping (the
// catalog service over a bare SqlReader: one prepared statement each, no plugin around it); the
// signed-in calls check the session as our auth plugin does (bare-checkout.ts's bareSession, and the
// employee's role read fresh, with our statement); the cart changes, the orders page and the
// dashboard's totals run our statements too, Low Stock one statement; the import checks a file with one
// lookup and writes it with one UPDATE in a transaction that locks its copies first.
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { ADD_TO_CART_SQL, REMOVE_CART_LINE_SQL } from '../../api/src/modules/cart/cart-repository.ts';
import { catalogRepository } from '../../api/src/modules/catalog/catalog-repository.ts';
import { catalogService } from '../../api/src/modules/catalog/catalog-service.ts';
import { BACKOFFICE_ORDERS_PAGE_SQL } from '../../api/src/modules/orders/order-queries.ts';
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

const LOW_STOCK_SQL = `
  WITH settings AS (SELECT low_stock_threshold AS threshold FROM shop_settings WHERE id),
  low AS (SELECT id, book_id, quantity, price, is_available FROM book_copies WHERE quantity <= (SELECT threshold FROM settings)),
  recent AS (
    SELECT s.book_copy_id, sum(s.units)::int AS units FROM sales_daily_copies s
    WHERE s.book_copy_id IN (SELECT id FROM low) AND s.day >= (now() AT TIME ZONE 'UTC')::date - 29
    GROUP BY s.book_copy_id
  )
  SELECT (SELECT threshold FROM settings) AS threshold, low.id AS "copyId", low.book_id AS "bookId", b.name AS "bookName",
         a.full_name AS "authorName", low.quantity, low.price::text AS price, low.is_available AS "isAvailable",
         coalesce(r.units, 0) AS "unitsSold30Days", count(*) OVER ()::int AS "totalCopies"
  FROM low JOIN books b ON b.id = low.book_id JOIN authors a ON a.id = b.author_id LEFT JOIN recent r ON r.book_copy_id = low.id
  ORDER BY "unitsSold30Days" DESC, low.quantity ASC, low.id ASC LIMIT $1 OFFSET $2`;
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
  const catalog = catalogService(catalogRepository({ query: (sql, values, varies) => query(sql, values, varies) as never }));
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
    const [line] = await query<{ id: number }>(ADD_TO_CART_SQL, [clientId, Number(request.params.copyId)]);
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
    const rows = await query<{ total: number; id: number | null; totalPrice: string }>(BACKOFFICE_ORDERS_PAGE_SQL, [
      (pageNumber - 1) * pageSize,
      pageSize,
    ]);
    return {
      data: {
        orders: rows.flatMap(({ total: _total, ...order }) =>
          order.id === null ? [] : [{ ...order, totalPrice: Number(order.totalPrice) }],
        ),
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
    const pageSize = 25;
    const rows = await query<{ threshold: number; totalCopies: number; price: string }>(LOW_STOCK_SQL, [pageSize, 0]);
    return {
      data: {
        threshold: rows[0]?.threshold,
        copies: rows.map(({ threshold: _t, totalCopies: _c, ...row }) => ({ ...row, price: Number(row.price) })),
        totalCopies: rows[0]?.totalCopies ?? 0,
        totalPages: Math.ceil((rows[0]?.totalCopies ?? 0) / pageSize),
      },
    };
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
