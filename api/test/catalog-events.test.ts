// Catalog changes are announced by the code that makes them (issue 27). Every state-changing operation
// of the back-office is called once, successfully, as an Admin; a row trigger of this test's own counts
// the rows the call changed in the catalog's tables (those the database announces, decision 11: found
// by their notify_catalog_changed triggers, never listed here). A call that changed any must have
// emitted exactly one catalog event, and one that changed none, none. A new operation fails the walk
// until it has a way to be called here, so a catalog write that forgets its event cannot pass.
// Then sales: Bestselling follows a checkout within SALES_REFRESH_SECONDS.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CatalogEvent } from '../src/modules/catalog/catalog-events.ts';
import { totpCode } from '../src/modules/second-factor/codes.ts';
import { cookieHeader, createTestApp, DEMO, type TestApp } from './helpers.ts';

const SALES_REFRESH_SECONDS = 1;

let t: TestApp;
let admin: string;
let adminId: number;
/** The walk's Admin's password as it is now: the walk changes it, and a first second factor asks for it. */
let adminPassword = DEMO.admin.password;
const events: CatalogEvent[] = [];
beforeAll(async () => {
  t = await createTestApp({ env: { SALES_REFRESH_SECONDS: String(SALES_REFRESH_SECONDS) } });
  t.app.catalogEvents.subscribe((event) => events.push(event));
  // An Admin of this test's own: the walk changes its password and second factor.
  const walker = await t.newEmployee({ role: 'Admin' });
  adminId = walker.id;
  admin = await t.login(walker);
  await t.db.query(`
    CREATE TABLE catalog_rows_changed (n bigint NOT NULL);
    INSERT INTO catalog_rows_changed VALUES (0);
    CREATE FUNCTION count_catalog_row() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN UPDATE catalog_rows_changed SET n = n + 1; RETURN NULL; END $$;
    DO $$ DECLARE catalog_table text; BEGIN
      FOR catalog_table IN SELECT DISTINCT c.relname FROM pg_trigger g JOIN pg_class c ON c.oid = g.tgrelid
                           JOIN pg_proc p ON p.oid = g.tgfoid WHERE p.proname = 'notify_catalog_changed' LOOP
        EXECUTE format('CREATE TRIGGER %I AFTER INSERT OR UPDATE OR DELETE ON %I FOR EACH ROW EXECUTE FUNCTION count_catalog_row()',
                       catalog_table || '_counted', catalog_table);
      END LOOP;
    END $$;`);
});

const rowsChanged = async () => Number((await t.db.query<{ n: string }>('SELECT n FROM catalog_rows_changed'))[0]!.n);
/** The first row of a statement, on this file's database unless another is named. */
const one = async <T>(sql: string, values: unknown[] = [], db = t.db) => (await db.query<T & Record<string, unknown>>(sql, values))[0]!;
const get = async (url: string) => (await t.app.inject({ method: 'GET', url, headers: { cookie: admin } })).json().data;

/** A call of one operation: its request, and what must happen after it before its effects are counted. */
interface Call {
  url: string;
  payload?: unknown;
  headers?: Record<string, string>;
  /** Work the call starts that outlives its answer (an import's run): waited for before counting. */
  settled?: (answer: { data: unknown }) => Promise<void>;
}

/** A client's order of one copy, placed through the storefront. */
async function placedOrder() {
  const client = await t.newClient();
  const [copy] = await t.db.query<{ id: number; price: string }>(
    'SELECT id, price::text FROM book_copies WHERE is_available AND quantity > 5 ORDER BY id LIMIT 1',
  );
  const line = await t.addToCart(client.cookie, copy!.id, 1);
  const order = await t.checkout(client.cookie, { cartItemsIds: [line], totalPrice: Number(copy!.price), totalQuantity: 1 });
  expect(order.statusCode, order.body).toBe(200);
  return order.json().data.id as number;
}

const newAuthor = async () =>
  (await one<{ id: number }>(`INSERT INTO authors (full_name) VALUES ($1) RETURNING id`, [`Walk ${randomUUID()}`])).id;
/** A book nobody ordered, with one copy. */
async function unorderedCopy() {
  const book = await one<{ id: number }>(
    `INSERT INTO books (name, search_text, author_id, type_id) VALUES ('Walk Book', 'walk book', $1, 1) RETURNING id`,
    [await newAuthor()],
  );
  const copy = await one<{ id: number }>(
    'INSERT INTO book_copies (book_id, price, quantity, is_available) VALUES ($1, 9.99, 3, true) RETURNING id',
    [book.id],
  );
  return { bookId: book.id, copyId: copy.id };
}
const person = (email: string) => ({
  firstName: 'Walk',
  lastName: 'Person',
  gender: 'Female',
  birthDate: '1990-01-01',
  email,
  phoneNumber: '0555000001',
  address: '2 Main Street',
});
let totpSecret = '';
let passkeyId = 0;

/**
 * How to call each state-changing back-office operation so that it succeeds, in this order (later ones
 * rely on earlier ones: the second factor is set up before the calls that need it).
 */
const CALLS: Record<string, () => Promise<Call>> = {
  addAuthor: async () => ({ url: `POST /api/employee/author/${encodeURIComponent(`Walk ${randomUUID()}`)}` }),
  renameAuthor: async () => ({ url: `PUT /api/employee/author/${await newAuthor()},${encodeURIComponent(`Walk ${randomUUID()}`)}` }),
  deleteAuthor: async () => ({ url: `DELETE /api/employee/author/${await newAuthor()}` }),
  deleteAuthorLegacyPath: async () => ({ url: `DELETE /api/author/${await newAuthor()}` }),
  addBookByIsbn: async () => {
    // A book of the ISBN catalog the shop lacks: one nobody ordered, taken out of the shop first.
    const book = await one<{ id: number; isbn13: string }>(
      `SELECT b.id, b.isbn13 FROM books b WHERE b.isbn13 IS NOT NULL AND NOT EXISTS
         (SELECT 1 FROM order_items oi JOIN book_copies c ON c.id = oi.book_copy_id WHERE c.book_id = b.id) ORDER BY b.id LIMIT 1`,
    );
    await t.db.query('DELETE FROM book_copies WHERE book_id = $1', [book.id]);
    await t.db.query('DELETE FROM books WHERE id = $1', [book.id]);
    return { url: `POST /api/employee/book/${book.isbn13}` };
  },
  updateBook: async () => ({ url: 'PUT /api/employee/book/', payload: { id: (await unorderedCopy()).bookId, name: 'Walk Renamed' } }),
  deleteBook: async () => ({ url: `DELETE /api/employee/book/${(await unorderedCopy()).bookId}` }),
  addBookCopy: async () => ({
    url: 'POST /api/employee/book-copy/',
    payload: { bookId: (await unorderedCopy()).bookId, quantity: 2, price: 4.5, isAvailable: true },
  }),
  updateBookCopy: async () => {
    const { copyId, bookId } = await unorderedCopy();
    const { version } = await get(`/api/employee/book-copy/by-id/${copyId}`);
    return {
      url: 'PUT /api/employee/book-copy/',
      headers: { 'if-match': `"${version}"` },
      payload: { id: copyId, bookId, quantity: 7, price: 5.5, isAvailable: true },
    };
  },
  deleteBookCopy: async () => ({ url: `DELETE /api/employee/book-copy/${(await unorderedCopy()).copyId}` }),
  restockCopy: async () => ({ url: `POST /api/employee/low-stock/${(await unorderedCopy()).copyId}/restock`, payload: { add: 2 } }),
  setLowStockThreshold: async () => ({ url: 'PUT /api/employee/low-stock/threshold', payload: { threshold: 6 } }),
  checkCatalogImport: async () => ({
    url: 'POST /api/employee/catalog/import',
    headers: { 'content-type': 'text/csv' },
    payload: `isbn,price,stock,available\n${(await one<{ isbn13: string }>('SELECT isbn13 FROM books WHERE isbn13 IS NOT NULL ORDER BY id DESC LIMIT 1')).isbn13},12.34,9,true\n`,
  }),
  runCatalogImport: async () => {
    const [book] = await t.db.query<{ isbn13: string }>('SELECT isbn13 FROM books WHERE isbn13 IS NOT NULL ORDER BY id DESC LIMIT 1');
    const checked = await t.app.inject({
      method: 'POST',
      url: '/api/employee/catalog/import',
      headers: { cookie: admin, 'content-type': 'text/csv' },
      payload: `isbn,price,stock,available\n${book!.isbn13},23.45,11,true\n`,
    });
    return {
      url: `POST /api/employee/catalog/import/${checked.json().data.id}/run`,
      payload: { skipInvalid: false },
      settled: async ({ data }) => {
        const id = (data as { id: number }).id;
        for (let waited = 0; (await get(`/api/employee/catalog/import/${id}`)).status === 'running'; waited += 50) {
          if (waited > 20_000) throw new Error('the import did not finish');
          await new Promise((done) => setTimeout(done, 50));
        }
        expect((await get(`/api/employee/catalog/import/${id}`)).status).toBe('done');
      },
    };
  },
  setReviewHidden: async () => {
    const { id: clientId } = await t.newClient();
    const review = await one<{ id: number; updated_at: string }>(
      `INSERT INTO book_reviews (book_id, client_id, stars) VALUES (1, $1, 4) RETURNING id, to_char(updated_at, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_at`,
      [clientId],
    );
    return { url: `PUT /api/employee/review/${review.id}`, payload: { hidden: true, updatedAt: review.updated_at } };
  },
  setOrderStatus: async () => ({ url: `PUT /api/employee/order/set-status/${await placedOrder()},Processing` }),
  cancelOrder: async () => ({ url: `POST /api/employee/order/${await placedOrder()}/cancel`, payload: { reason: 'Walk' } }),
  deleteContactMessage: async () => {
    const message = await one<{ id: number }>(
      `INSERT INTO contact_messages (user_name, account, message) VALUES ('Walk', 'walk@example.com', 'Hello') RETURNING id`,
    );
    return { url: `DELETE /api/employee/contact/${message.id}` };
  },
  retryDeadLetter: async () => {
    const letter = await one<{ id: string }>(
      `INSERT INTO mail_outbox (kind, employee_id, attempts, dead_at, last_error) VALUES ('password_changed', $1, 8, localtimestamp, 'walk') RETURNING id`,
      [adminId],
    );
    return { url: `POST /api/employee/mail/dead-letters/${letter.id}/retry` };
  },
  updateOwnEmployeeInfo: async () => ({
    url: 'PUT /api/employee/',
    payload: { ...person(`walk-${randomUUID()}@bookshop.test`), currentPassword: adminPassword },
  }),
  changeEmployeePassword: async () => {
    const newPassword = `Walk-${randomUUID()}-9a`;
    return {
      url: 'PUT /api/employee/password/',
      payload: { oldPassword: adminPassword, newPassword },
      settled: async () => {
        adminPassword = newPassword;
      },
    };
  },
  addEmployee: async () => ({
    url: 'POST /api/employee/',
    payload: { person_informations: person(`walk-${randomUUID()}@bookshop.test`), password: `Walk-${randomUUID()}-9a`, role: 'Seller' },
  }),
  changeEmployeeRole: async () => ({
    url: `PUT /api/employee/${(await t.newEmployee({ role: 'Seller' })).id}/role`,
    payload: { role: 'Admin' },
  }),
  deleteEmployee: async () => ({ url: `DELETE /api/employee/${(await t.newEmployee({ role: 'Seller' })).id}` }),
  resetEmployeeSecondFactor: async () => {
    const id = (await t.newEmployee({ role: 'Seller' })).id;
    await t.db.query(`INSERT INTO employee_totp (employee_id, secret, confirmed_at) VALUES ($1, 'walk', localtimestamp)`, [id]);
    return { url: `DELETE /api/employee/${id}/second-factor` };
  },
  startTotpSetup: async () => ({
    url: 'POST /api/employee/second-factor/totp',
    payload: { currentPassword: adminPassword },
    settled: async ({ data }) => {
      totpSecret = (data as { secret: string }).secret;
    },
  }),
  // Codes of successive time steps: a code never works twice.
  confirmTotpSetup: async () => ({
    url: 'POST /api/employee/second-factor/totp/confirm',
    payload: { code: totpCode(totpSecret, Date.now() - 30_000) },
  }),
  stepUpOptions: async () => ({ url: 'POST /api/employee/second-factor/step-up/options' }),
  stepUp: async () => ({ url: 'POST /api/employee/second-factor/step-up', payload: { code: totpCode(totpSecret) } }),
  // Stepped up just before: an employee with a second factor ends sessions with it and the password.
  endOwnEmployeeSessions: async () => ({
    url: 'POST /api/employee/sessions/end',
    payload: { sessionIds: [randomUUID()], password: adminPassword },
  }),
  passkeyRegistrationOptions: async () => ({ url: 'POST /api/employee/second-factor/passkeys/options' }),
  renamePasskey: async () => {
    passkeyId = (
      await one<{ id: number }>(
        `INSERT INTO employee_passkeys (employee_id, credential_id, public_key, transports, name) VALUES ($1, $2, '\\x00', '{}', 'Walk key') RETURNING id`,
        [adminId, randomUUID()],
      )
    ).id;
    return { url: `PUT /api/employee/second-factor/passkeys/${passkeyId}`, payload: { name: 'Walk key, renamed' } };
  },
  removePasskey: async () => ({ url: `DELETE /api/employee/second-factor/passkeys/${passkeyId}` }),
  renewRecoveryCodes: async () => ({ url: 'POST /api/employee/second-factor/recovery-codes' }),
  removeTotp: async () => {
    // Another Admin with a second factor: the shop's last one is never removed.
    const other = (await t.newEmployee({ role: 'Admin' })).id;
    await t.db.query(`INSERT INTO employee_totp (employee_id, secret, confirmed_at) VALUES ($1, 'walk', localtimestamp)`, [other]);
    return { url: 'DELETE /api/employee/second-factor/totp' };
  },
};

/** Operations no API test can make succeed, with where they are tested instead: none of them writes the catalog. */
const CALLED_ELSEWHERE: Record<string, string> = {
  registerPasskey: 'needs a browser authenticator: e2e/second-factor.spec.ts',
};

/** Every state-changing operation behind an employee session, as the running app documents it. */
function backOfficeWrites() {
  const document = t.app.swagger() as unknown as {
    paths: Record<string, Record<string, { operationId: string; security?: Record<string, unknown>[] }>>;
  };
  return Object.values(document.paths)
    .flatMap((methods) => Object.entries(methods))
    .filter(([method, op]) => method !== 'get' && op.security?.some((scheme) => 'employeeSession' in scheme))
    .map(([, op]) => op.operationId)
    .sort();
}

describe('every back-office write announces its catalog changes', () => {
  it('each state-changing operation behind an employee session has a way to be called here', () => {
    const operations = backOfficeWrites();
    expect(operations.length).toBeGreaterThan(30);
    expect([...Object.keys(CALLS), ...Object.keys(CALLED_ELSEWHERE)].sort()).toEqual(operations);
  });

  it('a call that changes catalog rows emits exactly one catalog event after its commit; one that changes none, none', async () => {
    const catalogWriters: string[] = [];
    for (const [operationId, prepare] of Object.entries(CALLS)) {
      const call = await prepare();
      const [method, url] = call.url.split(' ') as ['POST' | 'PUT' | 'DELETE', string];
      const before = await rowsChanged();
      events.length = 0;
      const res = await t.app.inject({ method, url, headers: { cookie: admin, ...call.headers }, payload: call.payload as string });
      expect(res.statusCode, `${operationId}: ${res.body}`).toBeLessThan(300);
      // As the browser keeps them: a factor proved (the step-up, an enrolment) renews the session's cookies.
      admin = cookieHeader(res, admin);
      await call.settled?.(res.json());
      const changed = (await rowsChanged()) - before;
      expect(events, `${operationId} changed ${changed} catalog rows`).toHaveLength(changed > 0 ? 1 : 0);
      if (changed > 0) catalogWriters.push(`${operationId}: ${events[0]!.type}`);
    }
    // The walk reached the catalog's writes, not only refusals or reads.
    expect(catalogWriters).toEqual([
      'addAuthor: author.created',
      'renameAuthor: author.renamed',
      'deleteAuthor: author.deleted',
      'deleteAuthorLegacyPath: author.deleted',
      'addBookByIsbn: book.created',
      'updateBook: book.updated',
      'deleteBook: book.deleted',
      'addBookCopy: copy.created',
      'updateBookCopy: copy.updated',
      'deleteBookCopy: copy.deleted',
      'restockCopy: copy.restocked',
      'runCatalogImport: catalog.imported',
      'setReviewHidden: book.ratings-moved',
      'cancelOrder: order.cancelled',
    ]);
  });

  it('knows a catalog write that emits nothing when it sees one', async () => {
    const before = await rowsChanged();
    events.length = 0;
    await t.db.query('UPDATE book_copies SET price = price WHERE id = (SELECT min(id) FROM book_copies)');
    expect((await rowsChanged()) - before).toBe(1);
    expect(events).toHaveLength(0);
  });
});

describe('sales and Bestselling', () => {
  // An app and database of their own: the walk above leaves scheduled refreshes behind (each paced by
  // the last one's length), and a sale's refresh queued behind them would come later than its own
  // SALES_REFRESH_SECONDS.
  let sales: TestApp;
  beforeAll(async () => {
    sales = await createTestApp({ env: { SALES_REFRESH_SECONDS: String(SALES_REFRESH_SECONDS) } });
  });

  it("a checkout and a cancellation move Bestselling's order within SALES_REFRESH_SECONDS, without a catalog write", async () => {
    const bestselling = async () =>
      (await sales.app.inject({ method: 'GET', url: '/api/public/book-copy/browse/Art?sort=bestselling' }))
        .json()
        .data.booksCopies.map((b: { id: number }) => b.id) as number[];
    await sales.app.catalogProjections.refresh(['browse_listing']);
    const before = await bestselling();
    // The last of the page, bought in a quantity that puts it first.
    const copyId = before.at(-1)!;
    const { most } = await one<{ most: number }>(
      "SELECT max(c.units_sold)::int AS most FROM book_copies c JOIN books b ON b.id = c.book_id JOIN book_types ty ON ty.id = b.type_id WHERE ty.name = 'Art'",
      [],
      sales.db,
    );
    const quantity = most + 1;
    await sales.db.query('UPDATE book_copies SET quantity = quantity + $2 WHERE id = $1', [copyId, quantity]);
    await sales.app.catalogProjections.refresh(['browse_listing']);
    const client = await sales.newClient();
    const line = await sales.addToCart(client.cookie, copyId, quantity);
    const { total } = await one<{ total: string }>(
      'SELECT (price * $2)::text AS total FROM book_copies WHERE id = $1',
      [copyId, quantity],
      sales.db,
    );
    const order = await sales.checkout(client.cookie, { cartItemsIds: [line], totalPrice: Number(total), totalQuantity: quantity });
    expect(order.statusCode, order.body).toBe(200);
    const within = async (expected: (ids: number[]) => boolean) => {
      for (let waited = 0; waited <= (SALES_REFRESH_SECONDS + 5) * 1000; waited += 100) {
        if (expected(await bestselling())) return true;
        await new Promise((done) => setTimeout(done, 100));
      }
      return false;
    };
    expect(await within((ids) => ids[0] === copyId)).toBe(true);
    const cancelled = await sales.app.inject({
      method: 'POST',
      url: `/api/client/orders/${order.json().data.id}/cancel`,
      headers: { cookie: client.cookie },
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(await within((ids) => ids[0] !== copyId)).toBe(true);
  });
});
