// Generated data for the bench's growth runs: a catalog grown from the seed's books, and an order
// history grown from the seed's orders (used by bench.ts's growth runs and by issue 32's mix).
import type pg from 'pg';

/** Grows the catalog from `base` books to `books`: the seed's books mixed into new titles, one copy each. */
export async function growCatalog(db: pg.Client, base: number, books: number) {
  // The GIN indexes (trigrams, words) are built once after the insert: maintaining them row by row costs far more.
  const { rows: ginIndexes } = await db.query<{ indexdef: string; indexname: string }>(
    "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'books' AND indexdef LIKE '%USING gin%'",
  );
  for (const index of ginIndexes) await db.query(`DROP INDEX ${index.indexname}`);
  // Titles mix the first half of one seed title with the second half of another, so a search
  // matches about as often as in a real catalog instead of repeating every title.
  await db.query(
    `INSERT INTO books (name, search_text, ratings_count, ratings_sum, author_id, type_id, published_at, description, image_url)
     SELECT t.name, trim(regexp_replace(lower(t.name || ' ' || a.full_name), '[^[:alnum:]]+', ' ', 'g')),
            (b1.ratings_count * k.f)::int, (b1.ratings_sum * k.f)::bigint, b2.author_id, b1.type_id,
            b1.published_at - (g % 3650), b1.description, b1.image_url
     FROM generate_series(0, $1 - 1) g
     CROSS JOIN LATERAL (SELECT (g % 97 + 1) / 98.0 AS f) k
     JOIN books b1 ON b1.id = 1 + g % $2
     JOIN books b2 ON b2.id = 1 + (g::bigint * 7919 + g / $2) % $2
     JOIN authors a ON a.id = b2.author_id
     CROSS JOIN LATERAL (SELECT split_part(b1.name, ' ', 1) || ' ' || split_part(b1.name, ' ', 2) || ' ' ||
                                split_part(b2.name, ' ', 3) || ' ' || split_part(b2.name, ' ', 4) || ' ' || (g / $2 + 1) AS name) t`,
    [books - base, base],
  );
  await db.query(
    `INSERT INTO book_copies (book_id, price, quantity, is_available)
     SELECT id, 5 + (id % 40) + 0.99, id % 25, true FROM books WHERE id > $1`,
    [base],
  );
  for (const index of ginIndexes) await db.query(index.indexdef);
}

/** Grows the order history from `base` orders to `orders`: two years of generated orders, one to three lines each. */
export async function growOrders(db: pg.Client, base: number, orders: number) {
  // Loaded with the row triggers off (the daily aggregates are rebuilt once after, as the GIN indexes are in growCatalog()).
  await db.query('ALTER TABLE orders DISABLE TRIGGER USER; ALTER TABLE order_items DISABLE TRIGGER USER');
  await db.query(
    `WITH made AS (
       INSERT INTO orders (client_id, status, shipment_address, total_quantity, total_price, created_at)
       SELECT c.id, (ARRAY['pending','Processing','Shipped','delivered','success','failed','cancelled'])[1 + g % 7],
              'Generated 1', 1 + g % 3, 20, (now() AT TIME ZONE 'UTC') - make_interval(secs => (g::bigint * 7919) % (730 * 86400))
       FROM generate_series(1, $1) g
       JOIN clients c ON c.id = 1 + g % (SELECT count(*) FROM clients)
       RETURNING id, total_quantity
     )
     INSERT INTO order_items (order_id, book_copy_id, name, unit_price, quantity, type_id)
     SELECT m.id, pick.copy_id, 'Generated', 10, 1,
            -- The category the line is sold in (order_items_category, a trigger, is off with the others).
            (SELECT b.type_id FROM book_copies c JOIN books b ON b.id = c.book_id WHERE c.id = pick.copy_id)
     FROM made m CROSS JOIN LATERAL generate_series(1, m.total_quantity) line
     CROSS JOIN LATERAL (SELECT 1 + (m.id::bigint * 31 + line) % (SELECT count(*) FROM book_copies) AS copy_id) pick`,
    [orders - base],
  );
  await db.query('ALTER TABLE orders ENABLE TRIGGER USER; ALTER TABLE order_items ENABLE TRIGGER USER');
  await db.query('SELECT sales_daily_rebuild()');
}
