// No edit undoes a sale (decision record 12): a copy's save says which version it read, the spec's
// own client (no version) leaves a stock it saw as sales made it, the import applies its change on
// top of the stock now, and every stock change is a movement whose sum is the stock.

import { STOCK_MAX } from '@bookshop/rules';
import { parse } from 'csv-parse/sync';
import type { Static } from 'typebox';
import { describe, expect, it } from 'vitest';
import type { Copy as CopySchema } from '../src/schemas/backoffice-catalog.ts';
import { createTestApp, DEMO } from './helpers.ts';

const t = await createTestApp();
const admin = await t.login(DEMO.admin);
const shopper = await t.newClient();

type Method = 'GET' | 'POST' | 'PUT';
const call = (method: Method, url: string, cookie: string, payload?: object | string, headers: Record<string, string> = {}) =>
  t.app.inject({ method, url, headers: { cookie, ...headers }, payload });

type Copy = Static<typeof CopySchema>;

/** A fresh book with an ISBN and one copy: the test's own row. */
async function newCopy(quantity = 54) {
  const isbn = `979${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;
  const digits = [...isbn].map(Number);
  const check = (10 - (digits.reduce((sum, d, i) => sum + d * (i % 2 ? 3 : 1), 0) % 10)) % 10;
  const [row] = await t.db.query<{ id: number }>(
    `WITH b AS (
       INSERT INTO books (name, search_text, author_id, type_id, isbn13)
       SELECT 'Ledger test', 'ledger test', (SELECT min(id) FROM authors), (SELECT min(id) FROM book_types), $2 RETURNING id
     )
     INSERT INTO book_copies (book_id, quantity, price) SELECT id, $1, 9.99 FROM b RETURNING id`,
    [quantity, `${isbn}${check}`],
  );
  return { id: row!.id, isbn13: `${isbn}${check}` };
}

/** A shopper buys `units` of the copy through the storefront's real calls. */
async function sell(copyId: number, units = 1) {
  const line = (await call('POST', `/api/client/cart/${copyId}`, shopper.cookie)).json().data as number;
  if (units > 1) await call('PUT', '/api/client/cart/', shopper.cookie, { cartItemId: line, quantity: units });
  const price = (await t.db.query<{ price: string }>('SELECT price::text FROM book_copies WHERE id = $1', [copyId]))[0]!.price;
  const res = await t.checkout(shopper.cookie, { cartItemsIds: [line], totalPrice: Number(price) * units, totalQuantity: units });
  expect(res.statusCode, res.body).toBe(200);
}

const stockOf = async (copyId: number) =>
  (await t.db.query<{ quantity: number; price: string }>('SELECT quantity, price::text FROM book_copies WHERE id = $1', [copyId]))[0]!;

/** The copy as the back-office screen reads it: from the list page holding it. */
async function readAsScreen(copyId: number): Promise<Copy> {
  const res = await call('GET', `/api/employee/book-copy/by-id/${copyId}`, admin);
  expect(res.statusCode).toBe(200);
  expect(res.headers.etag).toBe(`"${res.json().data.version}"`);
  return res.json().data;
}

const save = (copy: Copy, headers: Record<string, string> = {}) =>
  call(
    'PUT',
    '/api/employee/book-copy',
    admin,
    { id: copy.id, bookId: copy.bookId, quantity: copy.quantity, price: copy.price, isAvailable: copy.isAvailable },
    headers,
  );

/** Copies whose stock is not the sum of their movements: none, ever. */
const unexplained = () =>
  t.db.query(
    `SELECT c.id, c.quantity, coalesce(sum(m.change), 0) AS moved FROM book_copies c LEFT JOIN stock_movements m ON m.copy_id = c.id
     GROUP BY c.id HAVING c.quantity <> coalesce(sum(m.change), 0)`,
  );

describe('a staff save and a sale on one copy', () => {
  it('our screen (If-Match): a save made before a sale is refused with 412, what changed and the copy now; saved again, the sale stands', async () => {
    const { id } = await newCopy(54);
    const opened = await readAsScreen(id);
    await sell(id);
    const stale = await save({ ...opened, price: 12.5 }, { 'if-match': `"${opened.version}"` });
    expect(stale.statusCode).toBe(412);
    expect(stale.json().error.message).toBe('1 copy was sold since you opened this: stock is now 53. Check your changes and save again.');
    const current = stale.json().error.details.current as Copy;
    expect(current).toMatchObject({ id, quantity: 53, price: 9.99 });
    expect(current.version).toBeGreaterThan(opened.version);
    expect(await stockOf(id)).toEqual({ quantity: 53, price: '9.99' });

    const saved = await save({ ...current, price: 12.5 }, { 'if-match': `"${current.version}"` });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.headers.etag).toBe(`"${saved.json().data.version}"`);
    expect(await stockOf(id)).toEqual({ quantity: 53, price: '12.50' });
    expect(await unexplained()).toEqual([]);
  });

  it("the spec's own client (no version): the full body with the stock it read changes the price only; the sale stands", async () => {
    const { id } = await newCopy(54);
    const opened = await readAsScreen(id);
    await sell(id);
    await sell(id, 2);
    const res = await save({ ...opened, price: 11 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ quantity: 51, price: 11 });
    expect(await stockOf(id)).toEqual({ quantity: 51, price: '11.00' });
  });

  it('without a version, a stock the copy never had since staff last set it is a new count, written as sent', async () => {
    const { id } = await newCopy(54);
    const opened = await readAsScreen(id);
    await sell(id);
    expect((await save({ ...opened, quantity: 70 })).json().data.quantity).toBe(70);
    // 70 is now what this Admin set: the old 54 again is their own new count, and is written.
    await sell(id);
    expect((await save({ ...opened, quantity: 54 })).json().data.quantity).toBe(54);
    const reasons = await t.db.query<{ reason: string; change: number; actor: string | null }>(
      'SELECT reason, change, actor FROM stock_movements WHERE copy_id = $1 ORDER BY id',
      [id],
    );
    expect(reasons.map((m) => [m.reason, m.change])).toEqual([
      ['new_copy', 54],
      ['sale', -1],
      ['staff_edit', 17],
      ['sale', -1],
      ['staff_edit', -15],
    ]);
    expect(reasons.filter((m) => m.reason === 'staff_edit').every((m) => /^employee:\d+$/.test(m.actor ?? ''))).toBe(true);
  });

  it("the spec's own client (no version) never undoes a restock made after it read the copy", async () => {
    const { id } = await newCopy(2);
    const opened = await readAsScreen(id);
    expect((await call('POST', `/api/employee/low-stock/${id}/restock`, admin, { add: 10 })).statusCode).toBe(200);
    await sell(id);
    const res = await save({ ...opened, price: 15 });
    expect(res.statusCode).toBe(412);
    expect(res.json().error.message).toBe(
      'Someone else changed this copy since you opened it: stock is now 11, price 9.99, available. Check your changes and save again.',
    );
    expect(await stockOf(id)).toEqual({ quantity: 11, price: '9.99' });
  });

  it("nor a restock of a stock it had held for days, or since it was made at 0 (the spec's own client)", async () => {
    const slow = await newCopy(2);
    const openedSlow = await readAsScreen(slow.id);
    // Its stock was set three days ago and has not moved since: the ledger has no movement of the day to it.
    await t.db.query("UPDATE stock_movements SET at = at - interval '3 days' WHERE copy_id = $1", [slow.id]);
    expect((await call('POST', `/api/employee/low-stock/${slow.id}/restock`, admin, { add: 10 })).statusCode).toBe(200);
    expect((await save({ ...openedSlow, price: 12 })).statusCode).toBe(412);
    expect(await stockOf(slow.id)).toEqual({ quantity: 12, price: '9.99' });
    // The same with a sale of the day before the restock: the restock starts from a stock no screen
    // showed, and the stock the screen showed is the one the copy held when the day began.
    const sold = await newCopy(2);
    const openedSold = await readAsScreen(sold.id);
    await t.db.query("UPDATE stock_movements SET at = at - interval '3 days' WHERE copy_id = $1", [sold.id]);
    await sell(sold.id);
    expect((await call('POST', `/api/employee/low-stock/${sold.id}/restock`, admin, { add: 10 })).statusCode).toBe(200);
    expect((await save({ ...openedSold, price: 12 })).statusCode).toBe(412);
    expect(await stockOf(sold.id)).toEqual({ quantity: 11, price: '9.99' });

    const empty = await newCopy(0);
    const openedEmpty = await readAsScreen(empty.id);
    expect((await call('POST', `/api/employee/low-stock/${empty.id}/restock`, admin, { add: 20 })).statusCode).toBe(200);
    expect((await save({ ...openedEmpty, price: 12 })).statusCode).toBe(412);
    expect(await stockOf(empty.id)).toEqual({ quantity: 20, price: '9.99' });
    // Refused once: the same Admin sending 0 again, told the stock is 20, means it (within ten minutes).
    const meant = await save({ ...openedEmpty, price: 12 });
    expect(meant.statusCode, meant.body).toBe(200);
    expect(await stockOf(empty.id)).toEqual({ quantity: 0, price: '12.00' });
    // Once: the next stale save of the day is refused again.
    expect((await call('POST', `/api/employee/low-stock/${empty.id}/restock`, admin, { add: 5 })).statusCode).toBe(200);
    expect((await save({ ...openedEmpty, price: 13 })).statusCode).toBe(412);

    // A copy made today with stock, then counted at 0 by hand: no screen showed a 0 from before it was made.
    const counted = await newCopy(6);
    const openedCounted = await readAsScreen(counted.id);
    expect((await save({ ...openedCounted, quantity: 0 })).json().data.quantity).toBe(0);
  });

  it('a version that is not an ETag is a 400; one that is no longer current a 412 even when nothing was sold', async () => {
    const { id } = await newCopy(5);
    const opened = await readAsScreen(id);
    expect((await save(opened, { 'if-match': 'three' })).statusCode).toBe(400);
    expect((await save({ ...opened, isAvailable: false }, { 'if-match': `W/"${opened.version}"` })).statusCode).toBe(200);
    const stale = await save({ ...opened, price: 1 }, { 'if-match': `"${opened.version}"` });
    expect(stale.statusCode).toBe(412);
    expect(stale.json().error.message).toBe(
      'Someone else changed this copy since you opened it: stock is now 5, price 9.99, not available. Check your changes and save again.',
    );
    expect((await save({ ...opened, price: 1 }, { 'if-match': '*' })).statusCode).toBe(200);
  });

  it("lists a copy's movements with their reasons, newest first", async () => {
    const { id } = await newCopy(3);
    await sell(id);
    expect((await call('POST', `/api/employee/low-stock/${id}/restock`, admin, { add: 4 })).statusCode).toBe(200);
    const res = await call('GET', `/api/employee/low-stock/${id}/movements?pageSize=10`, admin);
    expect(res.statusCode, res.body).toBe(200);
    expect(
      res.json().data.movements.map((m: { reason: string; change: number; stockAfter: number }) => [m.reason, m.change, m.stockAfter]),
    ).toEqual([
      ['restock', 4, 6],
      ['sale', -1, 2],
      ['new_copy', 3, 3],
    ]);
    expect((await call('GET', '/api/employee/low-stock/999999999/movements', admin)).statusCode).toBe(404);
  });
});

describe('the import and sales made since the export', () => {
  const importFile = async (text: string, by = admin) => {
    const checked = await call('POST', '/api/employee/catalog/import', by, text, { 'content-type': 'text/csv' });
    expect(checked.statusCode, checked.body).toBe(200);
    return checked.json().data;
  };
  const run = async (jobId: number, by = admin) => {
    expect((await call('POST', `/api/employee/catalog/import/${jobId}/run`, by, { skipInvalid: false })).statusCode).toBe(200);
    for (let i = 0; i < 200; i++) {
      const job = (await call('GET', `/api/employee/catalog/import/${jobId}`, by)).json().data;
      if (job.status !== 'running') return job;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('the import did not finish');
  };
  /** A second Admin's session (each Admin keeps one check of a file waiting). */
  const anotherAdmin = async () => t.login(await t.newEmployee({ role: 'Admin' }));
  const exportedRow = async (isbn13: string) => {
    const rows = parse((await call('GET', '/api/employee/catalog/export.csv', admin)).body, { columns: true }) as Record<string, string>[];
    return rows.find((r) => r.isbn === isbn13)!;
  };
  const asCsv = (row: Record<string, string>) =>
    `${Object.keys(row).join(',')}\n${Object.values(row)
      .map((v) => JSON.stringify(v))
      .join(',')}`;

  it('export, sell, import the file unchanged: the stock is the stock after the sale', async () => {
    const { id, isbn13 } = await newCopy(20);
    const row = await exportedRow(isbn13);
    expect(row).toMatchObject({ stock: '20', exported_stock: '20' });
    await sell(id, 3);
    const job = await importFile(asCsv(row));
    expect(job).toMatchObject({ unchanged: 1, changed: 0, moved: 1, warnings: [] });
    expect(job.movedRows).toEqual([{ line: 2, isbn: isbn13, exportedStock: 20, stockNow: 17, stockAfter: 17 }]);
    expect((await stockOf(id)).quantity).toBe(17);
  });

  it('the same edited file imported twice changes the stock once: a check after the first run refuses the row, and a run checked before it refuses the file', async () => {
    const { id, isbn13 } = await newCopy(10);
    const row = await exportedRow(isbn13);
    expect(Number(row.exported_ledger)).toBeGreaterThan(0);
    const edited = asCsv({ ...row, stock: '15' });
    // Another Admin checks the same file before the first run (each Admin keeps one check waiting).
    const otherAdmin = await anotherAdmin();
    const checkedEarlier = await importFile(edited, otherAdmin);
    expect(checkedEarlier).toMatchObject({ changed: 1, invalid: 0 });

    const first = await importFile(edited);
    expect((await run(first.id)).status).toBe('done');
    expect((await stockOf(id)).quantity).toBe(15);
    await sell(id);
    const again = await importFile(edited);
    expect(again.invalidRows).toEqual([
      {
        line: 2,
        isbn: isbn13,
        reason:
          "An import changed this copy's stock since the file was exported (this file, run already?), so its change from 10 to 15 may be in the shop already (stock 14 now): export again, or set it on the Book Copies screen.",
      },
    ]);
    const ranEarlier = await run(checkedEarlier.id, otherAdmin);
    expect(ranEarlier).toMatchObject({
      status: 'failed',
      error: 'An import changed the stock of line 2 since the file was exported (this file, run already?); export again.',
    });
    expect((await stockOf(id)).quantity).toBe(14);

    // A file exported after the import changes the stock once more; one that leaves the stock as exported is not refused.
    const fresh = await exportedRow(isbn13);
    const third = await importFile(asCsv({ ...fresh, stock: '20' }));
    expect(third).toMatchObject({ changed: 1, invalid: 0 });
    expect((await run(third.id)).status).toBe('done');
    expect((await stockOf(id)).quantity).toBe(20);
    expect(await importFile(asCsv({ ...row, price: '11.50' }))).toMatchObject({ changed: 1, invalid: 0 });
  });

  it("a book exported without a copy gets the file's stock once, though two Admins checked the file before either ran it", async () => {
    const made = await newCopy(1);
    const [book] = await t.db.query<{ book_id: number }>('DELETE FROM book_copies WHERE id = $1 RETURNING book_id', [made.id]);
    const row = await exportedRow(made.isbn13);
    expect(row).toMatchObject({ stock: '', exported_stock: '', copy_id: '' });
    expect(Number(row.exported_ledger)).toBeGreaterThan(0);
    const edited = asCsv({ ...row, price: '8.00', stock: '6', available: 'true' });
    const otherAdmin = await anotherAdmin();
    const [mine, theirs] = [await importFile(edited), await importFile(edited, otherAdmin)];
    expect(mine).toMatchObject({ changed: 1, invalid: 0 });
    expect((await run(mine.id)).status).toBe('done');
    const ranTheirs = await run(theirs.id, otherAdmin);
    expect(ranTheirs).toMatchObject({
      status: 'failed',
      error: 'An import changed the stock of line 2 since the file was exported (this file, run already?); export again.',
    });
    expect(await t.db.query('SELECT quantity FROM book_copies WHERE book_id = $1', [book!.book_id])).toEqual([{ quantity: 6 }]);
  });

  it("export, sell, import with more stock: the file's change lands on top; sales between dry run and run stand too", async () => {
    const { id, isbn13 } = await newCopy(20);
    const row = await exportedRow(isbn13);
    await sell(id, 2);
    const job = await importFile(asCsv({ ...row, stock: '30' }));
    expect(job.movedRows).toEqual([{ line: 2, isbn: isbn13, exportedStock: 20, stockNow: 18, stockAfter: 28 }]);
    await sell(id);
    expect(await run(job.id)).toMatchObject({ status: 'done', stopped: 0, stoppedRows: [] });
    expect((await stockOf(id)).quantity).toBe(27);
    const last = await t.db.query<{ reason: string; reference: string }>(
      'SELECT reason, reference FROM stock_movements WHERE copy_id = $1 ORDER BY id DESC LIMIT 1',
      [id],
    );
    expect(last).toEqual([{ reason: 'import', reference: `import:${job.id}` }]);
  });

  it('sales between the check and the run that leave less than the file takes away: the stock stops at 0, and the job names the row', async () => {
    const [taken, topped] = [await newCopy(5), await newCopy(STOCK_MAX - 10)];
    const [takenRow, toppedRow] = [await exportedRow(taken.isbn13), await exportedRow(topped.isbn13)];
    const file = asCsv({ ...takenRow, stock: '2' }).concat(
      `\n${Object.values({ ...toppedRow, stock: String(STOCK_MAX - 5) })
        .map((v) => JSON.stringify(v))
        .join(',')}`,
    );
    const job = await importFile(file);
    expect(job).toMatchObject({ changed: 2, invalid: 0, stopped: 0, stoppedRows: [] });
    await sell(taken.id, 4);
    await t.db.query('UPDATE book_copies SET quantity = quantity + 8 WHERE id = $1', [topped.id]);

    const done = await run(job.id);
    expect(done).toMatchObject({ status: 'done', stopped: 2 });
    expect(done.stoppedRows).toEqual([
      { line: 2, isbn: taken.isbn13, stockBefore: 1, change: -3, stockAfter: 0 },
      { line: 3, isbn: topped.isbn13, stockBefore: STOCK_MAX - 2, change: 5, stockAfter: STOCK_MAX },
    ]);
    expect((await stockOf(taken.id)).quantity).toBe(0);
    expect((await stockOf(topped.id)).quantity).toBe(STOCK_MAX);
    expect(await unexplained()).toEqual([]);
  });

  it('a change that the sales since the export made impossible is refused with a clear line; a file without exported_stock is warned of', async () => {
    const { id, isbn13 } = await newCopy(5);
    const row = await exportedRow(isbn13);
    await sell(id, 4);
    const job = await importFile(asCsv({ ...row, stock: '0' }));
    expect(job.invalidRows).toEqual([
      { line: 2, isbn: isbn13, reason: "The stock moved since the export (5 then, 1 now): the file's change would leave -4." },
    ]);
    const { exported_stock: _gone, ...withoutColumn } = row;
    const blind = await importFile(asCsv(withoutColumn));
    expect(blind.warnings).toEqual([expect.stringMatching(/^The file has no exported_stock column/)]);
    expect(blind).toMatchObject({ changed: 1, moved: 0 });
  });

  it("export, the staff reprice a copy and take it off sale, import the file with a new stock: the staff's price and sale stand", async () => {
    const { id, isbn13 } = await newCopy(20);
    const row = await exportedRow(isbn13);
    expect(row).toMatchObject({ exported_price: row.price, exported_available: 'true' });
    const price = (Number(row.price) + 5).toFixed(2);
    await t.db.query('UPDATE book_copies SET price = $2, is_available = false WHERE id = $1', [id, price]);
    const job = await importFile(asCsv({ ...row, stock: '25' }));
    expect(job).toMatchObject({ changed: 1, invalid: 0, warnings: [] });
    expect((await run(job.id)).status).toBe('done');
    const [copy] = await t.db.query<{ quantity: number; price: string; is_available: boolean }>(
      'SELECT quantity, price::text, is_available FROM book_copies WHERE id = $1',
      [id],
    );
    expect(copy).toEqual({ quantity: 25, price, is_available: false });
  });

  it("a copy moved to the book since the export became its first: the row's stock change is refused, not written to that copy, at the check and at the run", async () => {
    const exported = await newCopy(7);
    const row = await exportedRow(exported.isbn13);
    expect(row.copy_id).toBe(String(exported.id));
    // Another book's copy, older (a lower id), is moved under this book: it becomes the book's first.
    const [older] = await t.db.query<{ id: number; quantity: number }>(
      'SELECT id, quantity FROM book_copies WHERE id < $1 AND book_id <> (SELECT book_id FROM book_copies WHERE id = $1) ORDER BY id DESC LIMIT 1',
      [exported.id],
    );
    const bookOf = async (copyId: number) =>
      (await t.db.query<{ book_id: number }>('SELECT book_id FROM book_copies WHERE id = $1', [copyId]))[0]!.book_id;
    const [bookBefore, exportedBook] = [await bookOf(older!.id), await bookOf(exported.id)];
    const moveOlder = (bookId: number) => t.db.query('UPDATE book_copies SET book_id = $2 WHERE id = $1', [older!.id, bookId]);
    await moveOlder(exportedBook);
    const edited = asCsv({ ...row, stock: '12' });
    const job = await importFile(edited);
    expect(job.invalidRows).toEqual([
      {
        line: 2,
        isbn: exported.isbn13,
        reason: `The row was exported from copy ${exported.id}, and its first copy is copy ${older!.id} now: export again, or set it on the Book Copies screen.`,
      },
    ]);

    // Moved back, the file checks; moved again before the run, the run refuses it and writes nothing.
    await moveOlder(bookBefore);
    const checked = await importFile(edited);
    expect(checked).toMatchObject({ changed: 1, invalid: 0 });
    await moveOlder(exportedBook);
    const ran = await run(checked.id);
    expect(ran).toMatchObject({ status: 'failed' });
    expect(ran.error).toBe('The book of line 2 has another first copy than the one exported; check the file again.');
    expect((await stockOf(older!.id)).quantity).toBe(older!.quantity);
    expect((await stockOf(exported.id)).quantity).toBe(7);
    await moveOlder(bookBefore);
  });

  it('the file and the staff both repriced a copy since the export, differently: the row is refused and says why; an export from before the columns is warned of', async () => {
    const { id, isbn13 } = await newCopy(20);
    const row = await exportedRow(isbn13);
    await t.db.query("UPDATE book_copies SET price = '31.00' WHERE id = $1", [id]);
    const job = await importFile(asCsv({ ...row, price: '29.00' }));
    expect(job.invalidRows).toEqual([
      {
        line: 2,
        isbn: isbn13,
        reason: `The price changed in the shop since the export (${row.exported_price} then, 31.00 now) and in the file (29.00): export again, or set it on the Book Copies screen.`,
      },
    ]);
    const { exported_price: _price, exported_available: _available, ...older } = row;
    const blind = await importFile(asCsv({ ...older, price: '29.00' }));
    expect(blind.warnings).toEqual([expect.stringMatching(/^The file has no exported_price and exported_available columns/)]);
    expect(blind).toMatchObject({ changed: 1, invalid: 0 });
    // Warned, and run: the file's price replaces the staff's, as before the columns.
    expect((await run(blind.id)).status).toBe('done');
    expect((await stockOf(id)).price).toBe('29.00');
  });
});

describe('the ledger', () => {
  it('re-counts every copy from its movements after a burst of concurrent sales, edits, restocks and an import, and finds no difference', async () => {
    const copies = await Promise.all([newCopy(40), newCopy(40), newCopy(40)]);
    const buyers = await Promise.all(Array.from({ length: 6 }, () => t.newClient()));
    const sale = async (buyer: (typeof buyers)[number], copyId: number) => {
      const line = (await call('POST', `/api/client/cart/${copyId}`, buyer.cookie)).json().data as number;
      return t.checkout(buyer.cookie, { cartItemsIds: [line], totalPrice: 9.99, totalQuantity: 1 });
    };
    const rows = parse((await call('GET', '/api/employee/catalog/export.csv', admin)).body, { columns: true }) as Record<string, string>[];
    const mine = rows.filter((r) => copies.some((c) => c.isbn13 === r.isbn)).map((r) => ({ ...r, stock: String(Number(r.stock) + 5) }));
    const file = `${Object.keys(mine[0]!).join(',')}\n${mine
      .map((r) =>
        Object.values(r)
          .map((v) => JSON.stringify(v))
          .join(','),
      )
      .join('\n')}`;
    const job = (await call('POST', '/api/employee/catalog/import', admin, file, { 'content-type': 'text/csv' })).json().data;
    const work: Promise<unknown>[] = [call('POST', `/api/employee/catalog/import/${job.id}/run`, admin, { skipInvalid: false })];
    for (const [i, copy] of copies.entries()) {
      const opened = await readAsScreen(copy.id);
      for (const buyer of buyers) work.push(sale(buyer, copy.id));
      work.push(save({ ...opened, price: 10 + i }));
      work.push(save({ ...opened, quantity: 44 }, { 'if-match': `"${opened.version}"` }));
      work.push(call('POST', `/api/employee/low-stock/${copy.id}/restock`, admin, { add: 2 }));
    }
    const answers = (await Promise.all(work)) as { statusCode: number }[];
    expect(answers.filter((a) => a.statusCode >= 500)).toEqual([]);
    for (let i = 0; i < 200; i++) {
      if ((await call('GET', `/api/employee/catalog/import/${job.id}`, admin)).json().data.status !== 'running') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(await unexplained()).toEqual([]);
    const reasons = await t.db.query<{ reason: string }>(
      'SELECT DISTINCT reason FROM stock_movements WHERE copy_id = ANY($1::int[]) ORDER BY reason',
      [copies.map((c) => c.id)],
    );
    expect(reasons.map((r) => r.reason)).toEqual(expect.arrayContaining(['import', 'new_copy', 'restock', 'sale']));
  });

  it('explains a hand-written update of several copies at once, one movement each, and refuses one that changes a copy id', async () => {
    const copies = await Promise.all([newCopy(10), newCopy(10), newCopy(10)]);
    const ids = copies.map((c) => c.id);
    await t.db.query('UPDATE book_copies SET quantity = quantity + (id % 3) + 1 WHERE id = ANY($1::int[])', [ids]);
    expect(await unexplained()).toEqual([]);
    const corrections = await t.db.query<{ copyId: number; change: number }>(
      `SELECT copy_id AS "copyId", change FROM stock_movements WHERE copy_id = ANY($1::int[]) AND reason = 'correction' ORDER BY copy_id`,
      [ids],
    );
    expect(corrections).toEqual([...ids].sort((a, b) => a - b).map((id) => ({ copyId: id, change: (id % 3) + 1 })));
    await expect(t.db.query('UPDATE book_copies SET id = id + 1000000, quantity = 0 WHERE id = $1', [ids[0]])).rejects.toThrow(
      /id does not change/,
    );
  });
});
