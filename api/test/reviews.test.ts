// Buyers' ratings and reviews: only a client who received the book rates it, once, and can change
// it; the book's average is the catalog's and the shop's combined; an Admin hides a review, and the
// audit log records who did.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { REVIEW_WRITES_PER_HOUR } from '../src/routes/client/reviews.ts';
import { createTestApp, DEMO, untilStatementsWaitOnLocks } from './helpers.ts';

// Set up while the file is collected: every test below reads these, none changes them.
const t = await createTestApp();
const admin = await t.login(DEMO.admin);
const seller = await t.login(DEMO.seller);

const call = (method: 'GET' | 'PUT', url: string, cookie = '', payload?: object) =>
  t.app.inject({ method, url, headers: { cookie }, payload });

/** A fresh client, with an order of a new copy of a fresh book in `status`; its cookie and the ids. */
async function buyer(status: string | null, firstName = 'Rita') {
  const client = await t.newClient({ firstName, lastName: 'Quill' });
  const [book] = await t.db.query<{ id: number }>(
    `INSERT INTO books (name, search_text, author_id, type_id, ratings_count, ratings_sum) VALUES ($1, 'x', 1, 1, 10, 30) RETURNING id`,
    [`Reviewed ${randomUUID()}`],
  );
  const [copy] = await t.db.query<{ id: number }>('INSERT INTO book_copies (book_id, quantity, price) VALUES ($1, 5, 10) RETURNING id', [
    book!.id,
  ]);
  if (status) {
    const [order] = await t.db.query<{ id: number }>(
      "INSERT INTO orders (client_id, status, shipment_address, total_quantity, total_price) VALUES ($1, $2, '1 Rue Didouche', 1, 10) RETURNING id",
      [client.id, status],
    );
    await t.db.query("INSERT INTO order_items (order_id, book_copy_id, name, unit_price, quantity) VALUES ($1, $2, 'A book', 10, 1)", [
      order!.id,
      copy!.id,
    ]);
  }
  return { cookie: client.cookie, clientId: client.id, bookId: book!.id, copyId: copy!.id };
}

/** The client's review as the Admin's list shows it. */
async function listed(clientId: number) {
  const reviews = (await call('GET', '/api/employee/review/1,100', admin)).json().data.reviews as {
    id: number;
    clientId: number;
    updatedAt: string;
  }[];
  return reviews.find((r) => r.clientId === clientId)!;
}

const ratings = async (copyId: number) => {
  const detail = (await call('GET', `/api/public/book-copy/by-id/${copyId}`)).json().data;
  return { average: detail.averageRating, count: detail.ratingsCount };
};

describe('rating a book', () => {
  it.each(['delivered', 'success', 'Shipped'])('a client whose order is %s rates it once, and can change the rating', async (status) => {
    const me = await buyer(status);
    expect((await call('GET', `/api/client/reviews/${me.copyId}`, me.cookie)).json().data).toEqual({
      canReview: true,
      stars: 0,
      review: '',
      hidden: false,
      // What the storefront will show of the client's name, said before they write.
      reviewer: 'Rita Q.',
    });
    expect(await ratings(me.copyId)).toEqual({ average: 3, count: 10 });

    const first = await call('PUT', `/api/client/reviews/${me.copyId}`, me.cookie, { stars: 5, review: '  Loved it.  ', extra: 'x' });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data).toEqual({ canReview: true, stars: 5, review: 'Loved it.', hidden: false, reviewer: 'Rita Q.' });
    // The catalog's 10 ratings averaging 3, and this 5: combined.
    expect(await ratings(me.copyId)).toEqual({ average: 3.2, count: 11 });

    await call('PUT', `/api/client/reviews/${me.copyId}`, me.cookie, { stars: 1 });
    expect(await ratings(me.copyId)).toEqual({ average: 2.8, count: 11 });
    const [{ n }] = (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM book_reviews WHERE client_id = $1', [
      me.clientId,
    ])) as [{ n: number }];
    expect(n).toBe(1);
  });

  it("the same review again is no change, and new words alone leave the book's ratings (and the catalog's cache) alone", async () => {
    const me = await buyer('delivered');
    await call('PUT', `/api/client/reviews/${me.copyId}`, me.cookie, { stars: 4, review: 'Good.' });
    const state = async () =>
      (
        await t.db.query<{ book: string; review: string }>(
          'SELECT (SELECT xmin::text FROM books WHERE id = $1) AS book, (SELECT xmin::text FROM book_reviews WHERE book_id = $1) AS review',
          [me.bookId],
        )
      )[0]!;
    const first = await state();
    expect((await call('PUT', `/api/client/reviews/${me.copyId}`, me.cookie, { stars: 4, review: ' Good. ' })).statusCode).toBe(200);
    expect(await state()).toEqual(first);
    const reworded = await call('PUT', `/api/client/reviews/${me.copyId}`, me.cookie, { stars: 4, review: 'Very good.' });
    expect(reworded.json().data).toMatchObject({ stars: 4, review: 'Very good.' });
    const after = await state();
    expect(after.review).not.toBe(first.review);
    expect(after.book).toBe(first.book);
    expect(await ratings(me.copyId)).toEqual({ average: 3.1, count: 11 });
  });

  it("a save sent from a tab that read other stars than the row's by then writes the stars it sent, and the ratings follow", async () => {
    const me = await buyer('delivered');
    await call('PUT', `/api/client/reviews/${me.copyId}`, me.cookie, { stars: 3, review: 'Fair.' });
    // Another tab's save of 5 stars holds the row while this one, having read 3, sends 3 with new words.
    const events: unknown[] = [];
    let listening = true;
    t.app.catalogEvents.subscribe((event) => {
      if (listening) events.push(event);
    });
    const other = new pg.Client({ connectionString: t.db.url });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query('UPDATE book_reviews SET stars = 5 WHERE client_id = $1', [me.clientId]);
      const mine = call('PUT', `/api/client/reviews/${me.copyId}`, me.cookie, { stars: 3, review: 'Fair, on reflection.' });
      await untilStatementsWaitOnLocks(t.db, 1);
      await other.query('COMMIT');
      expect((await mine).json().data).toMatchObject({ stars: 3, review: 'Fair, on reflection.' });
    } finally {
      await other.end();
      listening = false;
    }
    expect((await t.db.query('SELECT stars FROM book_reviews WHERE client_id = $1', [me.clientId]))[0]).toEqual({ stars: 3 });
    // The book's ratings moved back from 5 to 3: the lists ordered by them hear of it.
    expect(events).toContainEqual({ type: 'book.ratings-moved', bookId: me.bookId });
    // The catalog's 10 ratings averaging 3, and this 3.
    expect(await ratings(me.copyId)).toEqual({ average: 3, count: 11 });
  });

  it('keeps one blank line at most between paragraphs, and no words that show nothing', async () => {
    const me = await buyer('delivered');
    const save = async (review: string) =>
      (await call('PUT', `/api/client/reviews/${me.copyId}`, me.cookie, { stars: 3, review })).json().data.review;
    expect(await save('Long.\n\n\n\n\n\nStill long.')).toBe('Long.\n\nStill long.');
    expect(await save('\u200b\u200b\u200b')).toBe('');
  });

  it('a client whose shipped order staff set back to Processing still rates it', async () => {
    const me = await buyer('Processing');
    await t.db.query('UPDATE orders SET shipped_at = now() WHERE client_id = $1', [me.clientId]);
    expect((await call('PUT', `/api/client/reviews/${me.copyId}`, me.cookie, { stars: 5 })).statusCode).toBe(200);
  });

  it.each([
    ['no order of the book', null],
    ['an order still pending', 'pending'],
    ['an order being processed', 'Processing'],
    ['a cancelled order', 'cancelled'],
  ])('refuses a client with %s', async (_, status) => {
    const me = await buyer(status);
    expect((await call('GET', `/api/client/reviews/${me.copyId}`, me.cookie)).json().data.canReview).toBe(false);
    const res = await call('PUT', `/api/client/reviews/${me.copyId}`, me.cookie, { stars: 4 });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.message).toBe('You can rate a book once an order of it has shipped.');
    expect(await ratings(me.copyId)).toEqual({ average: 3, count: 10 });
  });

  it('refuses stars outside 1 to 5, an over-long review, a signed-out caller and an unknown copy', async () => {
    const me = await buyer('delivered');
    for (const body of [{ stars: 0 }, { stars: 6 }, { stars: 2.5 }, {}, { stars: 3, review: 'x'.repeat(1001) }]) {
      expect((await call('PUT', `/api/client/reviews/${me.copyId}`, me.cookie, body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await call('PUT', `/api/client/reviews/${me.copyId}`, '', { stars: 3 })).statusCode).toBe(401);
    expect((await call('PUT', '/api/client/reviews/999999999', me.cookie, { stars: 3 })).statusCode).toBe(404);
  });
});

describe('a loop of rating changes', () => {
  it(`ends at ${REVIEW_WRITES_PER_HOUR} an hour for one client, from however many addresses; another client on the same address still rates`, async () => {
    const me = await buyer('delivered');
    const rate = (who: { cookie: string; copyId: number }, stars: number, remoteAddress: string) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/client/reviews/${who.copyId}`,
        headers: { cookie: who.cookie },
        payload: { stars },
        remoteAddress,
      });
    for (let i = 0; i < REVIEW_WRITES_PER_HOUR; i++) {
      expect((await rate(me, (i % 5) + 1, `2001:db8:${i.toString(16)}::1`)).statusCode).toBe(200);
    }
    const refused = await rate(me, 3, '2001:db8:ffff::1');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    const other = await buyer('delivered');
    expect((await rate(other, 4, `2001:db8:${(REVIEW_WRITES_PER_HOUR - 1).toString(16)}::1`)).statusCode).toBe(200);
  });
});

describe("a book's reviews", () => {
  it('lists the visible ones newest first, by first name and initial, a page at a time', async () => {
    const a = await buyer('delivered', 'Amel');
    await call('PUT', `/api/client/reviews/${a.copyId}`, a.cookie, { stars: 4, review: 'Solid.' });
    // A second buyer of the same book.
    const b = await buyer('delivered', 'Badr');
    await t.db.query('UPDATE order_items SET book_copy_id = $1 WHERE order_id IN (SELECT id FROM orders WHERE client_id = $2)', [
      a.copyId,
      b.clientId,
    ]);
    await call('PUT', `/api/client/reviews/${a.copyId}`, b.cookie, { stars: 2 });

    const page = (await call('GET', `/api/public/book-copy/by-id/${a.copyId}/reviews?pageSize=1`)).json().data;
    expect(page).toMatchObject({ totalReviews: 2, totalPages: 2 });
    expect(page.reviews).toEqual([{ id: expect.any(Number), stars: 2, review: '', reviewer: 'Badr Q.', updatedAt: expect.any(String) }]);
    const second = (await call('GET', `/api/public/book-copy/by-id/${a.copyId}/reviews?pageNumber=2&pageSize=1`)).json().data;
    expect(second.reviews[0]).toMatchObject({ stars: 4, review: 'Solid.', reviewer: 'Amel Q.' });
  });

  it('an Admin hides a review: it leaves the list and the average, the audit log names the Admin; a Seller may not', async () => {
    const me = await buyer('delivered');
    await call('PUT', `/api/client/reviews/${me.copyId}`, me.cookie, { stars: 5, review: 'Spam spam.' });
    const review = await listed(me.clientId);

    expect((await call('PUT', `/api/employee/review/${review.id}`, seller, { hidden: true, updatedAt: review.updatedAt })).statusCode).toBe(
      403,
    );
    expect((await call('GET', '/api/employee/review/1,10', seller)).statusCode).toBe(403);

    const hide = await call('PUT', `/api/employee/review/${review.id}`, admin, { hidden: true, updatedAt: review.updatedAt });
    expect(hide.statusCode, hide.body).toBe(200);
    expect((await call('GET', `/api/public/book-copy/by-id/${me.copyId}/reviews`)).json().data.totalReviews).toBe(0);
    expect(await ratings(me.copyId)).toEqual({ average: 3, count: 10 });
    expect((await call('GET', `/api/client/reviews/${me.copyId}`, me.cookie)).json().data.hidden).toBe(true);
    expect(await listed(me.clientId)).toMatchObject({ hidden: true, stars: 5, review: 'Spam spam.' });

    const [audit] = await t.db.query<{ actor: string; entity: string; details: { after: unknown[] } }>(
      "SELECT actor, entity, details FROM security_events WHERE type = 'backoffice_write' AND entity = 'BookReview' ORDER BY id DESC LIMIT 1",
    );
    expect(audit!.actor).toMatch(/^employee:\d+$/);

    // Changing the stars of a hidden review keeps it hidden and out of the average.
    await call('PUT', `/api/client/reviews/${me.copyId}`, me.cookie, { stars: 1 });
    expect(await ratings(me.copyId)).toEqual({ average: 3, count: 10 });

    const show = await call('PUT', `/api/employee/review/${review.id}`, admin, {
      hidden: false,
      updatedAt: (await listed(me.clientId)).updatedAt,
    });
    expect(show.statusCode, show.body).toBe(200);
    expect(await ratings(me.copyId)).toEqual({ average: 2.8, count: 11 });
    expect((await call('PUT', '/api/employee/review/999999999', admin, { hidden: true, updatedAt: review.updatedAt })).statusCode).toBe(
      404,
    );
  });

  it('a hidden review whose words changed since the Admin read them is not shown (412); read again, it is; hiding never waits', async () => {
    const me = await buyer('delivered');
    await call('PUT', `/api/client/reviews/${me.copyId}`, me.cookie, { stars: 4, review: 'Fine.' });
    const read = await listed(me.clientId);
    expect((await call('PUT', `/api/employee/review/${read.id}`, admin, { hidden: true, updatedAt: read.updatedAt })).statusCode).toBe(200);
    // The Admin's list still shows "Fine." while its writer makes it something else.
    await call('PUT', `/api/client/reviews/${me.copyId}`, me.cookie, { stars: 4, review: 'Buy followers at spam.example' });

    const stale = await call('PUT', `/api/employee/review/${read.id}`, admin, { hidden: false, updatedAt: read.updatedAt });
    expect(stale.statusCode).toBe(412);
    expect(stale.json().error).toMatchObject({
      code: 'STALE_VERSION',
      message: 'The reviewer changed this review since you loaded it. Read it again before showing it.',
    });
    expect((await call('GET', `/api/public/book-copy/by-id/${me.copyId}/reviews`)).json().data.totalReviews).toBe(0);

    const now = await listed(me.clientId);
    expect(now).toMatchObject({ hidden: true, review: 'Buy followers at spam.example' });
    expect((await call('PUT', `/api/employee/review/${read.id}`, admin, { hidden: false, updatedAt: now.updatedAt })).statusCode).toBe(200);
    // Hiding, with what the Admin read before the last edit, goes ahead.
    await call('PUT', `/api/client/reviews/${me.copyId}`, me.cookie, { stars: 4, review: 'More spam.' });
    expect((await call('PUT', `/api/employee/review/${read.id}`, admin, { hidden: true, updatedAt: read.updatedAt })).statusCode).toBe(200);
    expect((await call('PUT', `/api/employee/review/${read.id}`, admin, { hidden: false, updatedAt: 'yesterday' })).statusCode).toBe(400);
  });

  it("a copy off sale has no reviews on the storefront, as it has no page; its buyer's own rating still answers", async () => {
    const me = await buyer('delivered');
    await call('PUT', `/api/client/reviews/${me.copyId}`, me.cookie, { stars: 5, review: 'Kept.' });
    await t.db.query('UPDATE book_copies SET is_available = false WHERE id = $1', [me.copyId]);
    const reviews = await call('GET', `/api/public/book-copy/by-id/${me.copyId}/reviews`);
    expect(reviews.statusCode).toBe(404);
    expect(reviews.json().error.message).toBe('This book is not available.');
    expect((await call('GET', `/api/public/book-copy/by-id/${me.copyId}`)).statusCode).toBe(404);
    expect((await call('GET', `/api/client/reviews/${me.copyId}`, me.cookie)).json().data).toMatchObject({ stars: 5, review: 'Kept.' });
  });
});
