// One employee's save or delete never silently undoes another's (decision record 12, amended): a book's and an
// author's save and delete say which version they read (If-Match), and a row changed since is refused with 412
// and the row now. What the shop keeps itself (ratings, the search text a rename rewrites) never
// makes an open edit stale.
import pg from 'pg';
import type { Static } from 'typebox';
import { describe, expect, it } from 'vitest';
import type { Book as BookSchema } from '../src/schemas/backoffice-catalog.ts';
import { createTestApp, DEMO, untilARowIsAwaited } from './helpers.ts';

const t = await createTestApp();
const admin = await t.login(DEMO.admin);

const call = (method: 'GET' | 'PUT' | 'DELETE', url: string, payload?: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method, url, headers: { cookie: admin, ...headers }, payload });
const ifMatch = (version: number) => ({ 'if-match': `"${version}"` });

type Book = Static<typeof BookSchema>;

/** A fresh author with one book of their own: the test's rows. */
async function newBook() {
  const tag = Math.random().toString(36).slice(2, 10);
  const [row] = await t.db.query<{ id: number; author_id: number }>(
    `WITH a AS (INSERT INTO authors (full_name) VALUES ($1) RETURNING id)
     INSERT INTO books (name, search_text, author_id, type_id) SELECT $2, $2, a.id, (SELECT min(id) FROM book_types) FROM a
     RETURNING id, author_id`,
    [`Versioned Author ${tag}`, `versioned book ${tag}`],
  );
  return { bookId: row!.id, authorId: row!.author_id };
}

/** The book as the back-office opens it, its version also its ETag. */
async function openBook(id: number): Promise<Book> {
  const res = await call('GET', `/api/employee/book/by-id/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers.etag).toBe(`"${res.json().data.version}"`);
  return res.json().data;
}

const saveBook = (book: Book, headers: Record<string, string> = {}) => {
  const { version: _version, ...fields } = book;
  return call('PUT', '/api/employee/book', fields, headers);
};
const bookRow = async (id: number) =>
  (await t.db.query<{ name: string; pages_number: number | null }>('SELECT name, pages_number FROM books WHERE id = $1', [id]))[0];

/** Runs `during` while another connection holds `statement`'s change uncommitted, then commits it. */
async function whileAnotherHolds(statement: string, during: () => Promise<void>) {
  const other = new pg.Client({ connectionString: t.db.url });
  await other.connect();
  try {
    await other.query('BEGIN');
    await other.query(statement);
    await during();
  } finally {
    await other.query('COMMIT');
    await other.end();
  }
}

describe('two employees editing one book', () => {
  it('the save made on the older version is refused with 412 and the book now; saved again on top of it, both changes stand', async () => {
    const { bookId } = await newBook();
    const first = await openBook(bookId);
    const second = await openBook(bookId);

    const renamed = await saveBook({ ...first, name: 'The First Edit' }, ifMatch(first.version));
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().data.version).toBe(first.version + 1);
    expect(renamed.headers.etag).toBe(`"${first.version + 1}"`);

    const stale = await saveBook({ ...second, pagesNumber: 321 }, ifMatch(second.version));
    expect(stale.statusCode).toBe(412);
    expect(stale.json().error).toMatchObject({
      code: 'STALE_VERSION',
      message: 'Someone else changed this book since you opened it. Check your changes and save again.',
      details: { current: { id: bookId, name: 'The First Edit', pagesNumber: null, version: first.version + 1 } },
    });
    expect(await bookRow(bookId)).toEqual({ name: 'The First Edit', pages_number: null });

    const current = stale.json().error.details.current as Book;
    const saved = await saveBook({ ...current, pagesNumber: 321 }, ifMatch(current.version));
    expect(saved.statusCode, saved.body).toBe(200);
    expect(await bookRow(bookId)).toEqual({ name: 'The First Edit', pages_number: 321 });
    // Both saves are the employee's in the audit log; the refused one wrote nothing.
    const audited = await t.db.query<{ actor: string; changed: string[] }>(
      `SELECT actor, array(SELECT jsonb_array_elements_text(details -> 'changed') ORDER BY 1) AS changed FROM security_events
       WHERE type = 'backoffice_write' AND entity = 'Book' AND entity_id = $1 ORDER BY id`,
      [String(bookId)],
    );
    expect(audited.map((a) => a.changed)).toEqual([['name'], ['pages_number']]);
    expect(audited.every((a) => /^employee:\d+$/.test(a.actor))).toBe(true);
  });

  it('two saves of one version at the same moment: one lands, the other is refused', async () => {
    const { bookId } = await newBook();
    const opened = await openBook(bookId);
    const answers = await Promise.all([
      saveBook({ ...opened, name: 'Edit A' }, ifMatch(opened.version)),
      saveBook({ ...opened, name: 'Edit B' }, ifMatch(opened.version)),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 412]);
    const winner = answers.find((a) => a.statusCode === 200)!.json().data.name;
    expect((await bookRow(bookId))!.name).toBe(winner);
  });

  it("a review's rating or the author's rename leaves an open edit current; a save that changes nothing keeps the version", async () => {
    const { bookId, authorId } = await newBook();
    const opened = await openBook(bookId);
    await t.db.query('UPDATE books SET ratings_count = ratings_count + 1, ratings_sum = ratings_sum + 5 WHERE id = $1', [bookId]);
    const rename = await call('PUT', `/api/employee/author/${authorId},${encodeURIComponent(`Renamed ${bookId}`)}`);
    expect(rename.statusCode, rename.body).toBe(200);

    const unchanged = await saveBook(opened, ifMatch(opened.version));
    expect(unchanged.statusCode, unchanged.body).toBe(200);
    expect(unchanged.json().data.version).toBe(opened.version);
    const saved = await saveBook({ ...opened, publishedAt: '2020-02-29' }, ifMatch(opened.version));
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data).toMatchObject({ publishedAt: '2020-02-29', version: opened.version + 1 });
  });

  it("the spec's own client (no If-Match) writes what it sends; an If-Match that is not an ETag is a 400", async () => {
    const { bookId } = await newBook();
    const opened = await openBook(bookId);
    expect((await saveBook({ ...opened, name: 'Meanwhile' }, ifMatch(opened.version))).statusCode).toBe(200);
    const unversioned = await saveBook({ ...opened, name: 'Last Writer' });
    expect(unversioned.statusCode, unversioned.body).toBe(200);
    expect((await bookRow(bookId))!.name).toBe('Last Writer');

    const malformed = await saveBook(opened, { 'if-match': 'yesterday' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error.message).toBe('If-Match must be the ETag the row was read with, such as "3".');
    expect((await call('PUT', '/api/employee/book', { id: 2147483647, name: 'Gone' }, ifMatch(1))).statusCode).toBe(404);
  });
});

describe('two employees renaming one author', () => {
  const rename = (id: number, name: string, headers: Record<string, string> = {}) =>
    call('PUT', `/api/employee/author/${id},${encodeURIComponent(name)}`, undefined, headers);

  it('the rename made on the older version is refused with 412 and the name now; the books keep the name that landed', async () => {
    const { authorId, bookId } = await newBook();
    const opened = await call('GET', `/api/employee/author/by-id/${authorId}`);
    expect(opened.statusCode).toBe(200);
    const { version } = opened.json().data as { version: number };
    expect(opened.headers.etag).toBe(`"${version}"`);

    const first = await rename(authorId, `First Name ${authorId}`, ifMatch(version));
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data.version).toBe(version + 1);
    const stale = await rename(authorId, `Second Name ${authorId}`, ifMatch(version));
    expect(stale.statusCode).toBe(412);
    expect(stale.json().error.message).toBe(
      `Someone else renamed this author since you opened it: the name is now "First Name ${authorId}". Check your change and save again.`,
    );
    expect(stale.json().error.details.current).toEqual({ id: authorId, fullName: `First Name ${authorId}`, version: version + 1 });
    const [book] = await t.db.query<{ search_text: string }>('SELECT search_text FROM books WHERE id = $1', [bookId]);
    expect(book!.search_text).toContain(`first name ${authorId}`);

    expect((await rename(authorId, `Unversioned ${authorId}`)).statusCode).toBe(200);
    expect((await rename(2147483647, 'Nobody', ifMatch(1))).statusCode).toBe(404);
  });
});

describe("a book's search text when its save and its author's rename meet", () => {
  const searchText = async (bookId: number) =>
    (await t.db.query<{ search_text: string }>('SELECT search_text FROM books WHERE id = $1', [bookId]))[0]!.search_text;
  it("a save that starts during the author's rename writes the new name, not the one it would have read before", async () => {
    const { bookId, authorId } = await newBook();
    const book = await openBook(bookId);
    let saved: Promise<{ statusCode: number }> | undefined;
    await whileAnotherHolds(`UPDATE authors SET full_name = 'Nadia Renamed' WHERE id = ${authorId}`, async () => {
      saved = saveBook({ ...book, name: 'Saved Meanwhile' }, ifMatch(book.version));
      await untilARowIsAwaited(t.db);
    });
    expect((await saved!).statusCode).toBe(200);
    expect(await searchText(bookId)).toBe('saved meanwhile nadia renamed');
  });

  it("a save without a version keeps the title and author it did not send as they are when it lands: another's rename made meanwhile stands", async () => {
    const { bookId, authorId } = await newBook();
    const [other] = await t.db.query<{ id: number }>("INSERT INTO authors (full_name) VALUES ('Moved To Author') RETURNING id");
    let saved: Promise<{ statusCode: number; body: string }> | undefined;
    // The save reads the book, then waits for the author's row; the other employee's rename and
    // change of author commit meanwhile (the author is the one the save read, held by a no-op).
    await whileAnotherHolds(
      `UPDATE authors SET full_name = full_name WHERE id = ${authorId};
       UPDATE books SET name = 'Renamed Meanwhile', author_id = ${other!.id} WHERE id = ${bookId}`,
      async () => {
        saved = call('PUT', '/api/employee/book', { id: bookId, pagesNumber: 321 });
        await untilARowIsAwaited(t.db);
      },
    );
    const answer = await saved!;
    expect(answer.statusCode, answer.body).toBe(200);
    const [row] = await t.db.query<{ name: string; author_id: number; pages_number: number; search_text: string }>(
      'SELECT name, author_id, pages_number, search_text FROM books WHERE id = $1',
      [bookId],
    );
    expect(row).toEqual({
      name: 'Renamed Meanwhile',
      author_id: other!.id,
      pages_number: 321,
      search_text: 'renamed meanwhile moved to author',
    });
  });

  it("a rename that starts during a book's new title writes that title, not the one it would have read before", async () => {
    const { bookId, authorId } = await newBook();
    let renamed: Promise<{ statusCode: number }> | undefined;
    await whileAnotherHolds(`UPDATE books SET name = 'Fresh Title' WHERE id = ${bookId}`, async () => {
      renamed = call('PUT', `/api/employee/author/${authorId},${encodeURIComponent('Omar Renamed')}`);
      await untilARowIsAwaited(t.db);
    });
    expect((await renamed!).statusCode).toBe(200);
    expect(await searchText(bookId)).toBe('fresh title omar renamed');
  });
});

describe('deleting a book or an author someone changed since it was read', () => {
  const copiesOf = async (bookId: number) =>
    (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM book_copies WHERE book_id = $1', [bookId]))[0]!.n;
  const withACopy = async (bookId: number) => {
    await t.db.query('INSERT INTO book_copies (book_id, quantity, price) VALUES ($1, 4, 9.99)', [bookId]);
  };

  it('a book renamed since is not deleted: 412 with the book now; deleted on the version now, its copies go with it', async () => {
    const { bookId } = await newBook();
    await withACopy(bookId);
    const opened = await openBook(bookId);
    expect((await saveBook({ ...opened, name: 'Renamed Meanwhile' }, ifMatch(opened.version))).statusCode).toBe(200);

    const stale = await call('DELETE', `/api/employee/book/${bookId}`, undefined, ifMatch(opened.version));
    expect(stale.statusCode).toBe(412);
    expect(stale.json().error).toMatchObject({
      code: 'STALE_VERSION',
      message: 'Someone else changed this book since you opened it. Look at it again before deleting it.',
      details: { current: { id: bookId, name: 'Renamed Meanwhile', version: opened.version + 1 } },
    });
    expect((await bookRow(bookId))!.name).toBe('Renamed Meanwhile');
    expect(await copiesOf(bookId)).toBe(1);

    const deleted = await call('DELETE', `/api/employee/book/${bookId}`, undefined, ifMatch(opened.version + 1));
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await bookRow(bookId)).toBeUndefined();
    expect(await copiesOf(bookId)).toBe(0);
  });

  it("a delete that starts while another employee's save of the book is under way waits for it, and is refused", async () => {
    const { bookId } = await newBook();
    await withACopy(bookId);
    const opened = await openBook(bookId);
    let deleted: Promise<{ statusCode: number; body: string }> | undefined;
    await whileAnotherHolds(`UPDATE books SET pages_number = 99 WHERE id = ${bookId}`, async () => {
      deleted = call('DELETE', `/api/employee/book/${bookId}`, undefined, ifMatch(opened.version));
      await untilARowIsAwaited(t.db);
    });
    const answer = await deleted!;
    expect(answer.statusCode, answer.body).toBe(412);
    expect(await bookRow(bookId)).toEqual({ name: opened.name, pages_number: 99 });
    expect(await copiesOf(bookId)).toBe(1);
  });

  it("an author renamed since is not deleted: 412 with the name now; the spec's own client (no If-Match) deletes as before", async () => {
    const [author] = await t.db.query<{ id: number; version: number }>(
      "INSERT INTO authors (full_name) VALUES ('To Be Deleted ' || gen_random_uuid()) RETURNING id, version",
    );
    const { id, version } = author!;
    expect(
      (await call('PUT', `/api/employee/author/${id},${encodeURIComponent(`Renamed ${id}`)}`, undefined, ifMatch(version))).statusCode,
    ).toBe(200);

    const stale = await call('DELETE', `/api/employee/author/${id}`, undefined, ifMatch(version));
    expect(stale.statusCode).toBe(412);
    expect(stale.json().error.message).toBe(
      `Someone else renamed this author since you opened it: the name is now "Renamed ${id}". Look at it again before deleting it.`,
    );
    expect(stale.json().error.details.current).toEqual({ id, fullName: `Renamed ${id}`, version: version + 1 });
    // The spec's path for the delete takes the version too.
    expect((await call('DELETE', `/api/author/${id}`, undefined, ifMatch(version))).statusCode).toBe(412);
    expect((await call('DELETE', `/api/author/${id}`, undefined, { 'if-match': 'yesterday' })).statusCode).toBe(400);

    const unversioned = await call('DELETE', `/api/employee/author/${id}`);
    expect(unversioned.statusCode, unversioned.body).toBe(200);
    expect(await t.db.query('SELECT 1 FROM authors WHERE id = $1', [id])).toEqual([]);
  });
});
