// Checkout's statements, as plain SQL text with $n parameters: the repository runs them as prepared
// statements in one node-postgres transaction (plugins/prisma.ts, sqlWriter), and `npm run bench`
// runs the very same text as its checkout baseline, so the ratio measures our stack and not the SQL.

/**
 * An order as its client sees it (ClientOrder). The column is a timestamp without time zone holding
 * UTC, as Prisma writes and reads it; node-postgres would read it in the process's time zone.
 */
const CLIENT_ORDER_COLUMNS = `id, created_at AT TIME ZONE 'UTC' AS "createdAt", status, total_quantity AS "totalQuantity",
  total_price::text AS "totalPrice", shipment_address AS "shipmentAddress", shipped_at AS "shippedAt"`;

/**
 * The columns of a locked cart line (CheckoutLine), with its copy's stock: read under the lock, a
 * line short of stock is refused before TAKE_STOCK_SQL draws an order id, so a loop of checkouts that
 * cannot be served spends none of the orders' ids.
 */
export const LOCK_CART_LINES_SQL = `
  SELECT ci.id AS cart_item_id, ci.book_copy_id, ci.quantity, c.price::text AS price, b.name, b.image_url, b.type_id, c.is_available,
    c.quantity AS stock
  FROM cart_items ci
  JOIN book_copies c ON c.id = ci.book_copy_id
  JOIN books b ON b.id = c.book_id
  WHERE ci.client_id = $1 AND ci.id = ANY($2::int[])
  ORDER BY ci.book_copy_id, ci.id
  FOR UPDATE OF ci, c`;

/**
 * $1 copy ids, $2 quantities; returns the copies whose stock was taken, with what is left of each,
 * and the order's id. It draws that id first and names it for the transaction, so the ledger's sale
 * rows, which the copies' trigger writes at the end of this statement, say which order they are
 * (`order:<id>`), as a cancellation's do; CREATE_ORDER_SQL then inserts the order under that id.
 */
export const TAKE_STOCK_SQL = `
  WITH sale AS (
    SELECT id AS order_id, set_config('bookshop.stock_reference', 'order:' || id, true) AS reference
    FROM (SELECT nextval('orders_id_seq')::int AS id) drawn
  )
  UPDATE book_copies c SET quantity = c.quantity - v.quantity, units_sold = c.units_sold + v.quantity
  FROM unnest($1::int[], $2::int[]) AS v(id, quantity), sale
  WHERE c.id = v.id AND c.is_available AND c.quantity >= v.quantity
  RETURNING c.id, c.quantity AS "left", sale.order_id AS "orderId"`;

/**
 * $1 client, $2 address, $3 total quantity, $4 total price, $5 idempotency key, $6 its request hash,
 * then the lines as parallel arrays: $7 copy ids, $8 names, $9 image urls, $10 prices, $11 quantities,
 * $12 cart line ids, $14 the books' categories; $13 the order's id, the one TAKE_STOCK_SQL drew (and
 * its sale rows name). Returns the order as the client sees it.
 */
export const CREATE_ORDER_SQL = `
  WITH new_order AS (
    INSERT INTO orders (id, client_id, status, shipment_address, total_quantity, total_price, idempotency_key, idempotency_request_hash)
    VALUES ($13, $1, 'pending', $2, $3, $4::numeric, $5, $6)
    RETURNING id, created_at, status, total_quantity, total_price, shipment_address, shipped_at
  ), items AS (
    INSERT INTO order_items (order_id, book_copy_id, name, image_url, unit_price, quantity, type_id)
    SELECT new_order.id, v.copy_id, v.name, v.image_url, v.price::numeric, v.quantity, v.type_id
    FROM new_order, unnest($7::int[], $8::text[], $9::text[], $10::text[], $11::int[], $14::int[])
      WITH ORDINALITY AS v(copy_id, name, image_url, price, quantity, type_id, n)
    ORDER BY v.n
  ), emptied AS (
    DELETE FROM cart_items WHERE client_id = $1 AND id = ANY($12::int[])
  ), confirmation AS (
    -- The order's confirmation e-mail, in its transaction: a rolled-back checkout sends none.
    INSERT INTO mail_outbox (kind, client_id, order_id) SELECT 'order_placed', $1, id FROM new_order
  )
  SELECT ${CLIENT_ORDER_COLUMNS} FROM new_order`;

/**
 * The back-office's page of every order, newest first, with its lines as sold: $1 offset, $2 size.
 * One statement: the count is the one row's when the page is past the end (the page's columns null).
 * The count is sales_daily's, exact as the dashboard's (DASHBOARD_TOTALS_SQL), not a count of every order.
 */
export const BACKOFFICE_ORDERS_PAGE_SQL = `
  SELECT total.n AS total, page.* FROM (SELECT coalesce(sum(orders), 0)::float8 AS n FROM sales_daily) total
  LEFT JOIN LATERAL (
    SELECT ${CLIENT_ORDER_COLUMNS}, client_id AS "clientId",
           coalesce((SELECT json_agg(json_build_object('id', i.id, 'name', i.name, 'imageUrl', i.image_url,
                                                       'quantity', i.quantity, 'unitPrice', i.unit_price::text) ORDER BY i.id)
                     FROM order_items i WHERE i.order_id = o.id), '[]') AS items
    FROM orders o ORDER BY o.created_at DESC, o.id DESC OFFSET $1 LIMIT $2
  ) page ON true
  ORDER BY page."createdAt" DESC, page.id DESC`;

export interface BackofficeOrderRow extends ClientOrderRow {
  clientId: number;
  items: { id: number; name: string; imageUrl: string | null; quantity: number; unitPrice: string }[];
}

/** $1 client, $2 key: the order an Idempotency-Key already placed, with the hash of its request. */
export const ORDER_BY_IDEMPOTENCY_KEY_SQL = `
  SELECT ${CLIENT_ORDER_COLUMNS}, idempotency_request_hash AS "idempotencyRequestHash"
  FROM orders WHERE client_id = $1 AND idempotency_key = $2`;

export interface CheckoutLine {
  cart_item_id: number;
  book_copy_id: number;
  quantity: number;
  price: string;
  name: string;
  image_url: string | null;
  /** The book's category now, which the line keeps as sold. */
  type_id: number;
  is_available: boolean;
  /** The copy's stock, read under the lock. */
  stock: number;
}

export interface ClientOrderRow {
  id: number;
  createdAt: Date;
  status: string;
  totalQuantity: number;
  totalPrice: string;
  shipmentAddress: string;
  /** When it first left the shop; the client's view says only whether it can still be cancelled. */
  shippedAt: Date | null;
}

export interface NewOrder {
  /** Drawn by TAKE_STOCK_SQL. */
  id: number;
  clientId: number;
  shipmentAddress: string;
  totalQuantity: number;
  totalPrice: string;
  idempotencyKey: string | null;
  idempotencyRequestHash: string | null;
}

export const takeStockValues = (lines: CheckoutLine[]) => [lines.map((l) => l.book_copy_id), lines.map((l) => l.quantity)];

export const createOrderValues = (order: NewOrder, lines: CheckoutLine[]) => [
  order.clientId,
  order.shipmentAddress,
  order.totalQuantity,
  order.totalPrice,
  order.idempotencyKey,
  order.idempotencyRequestHash,
  lines.map((l) => l.book_copy_id),
  lines.map((l) => l.name),
  lines.map((l) => l.image_url),
  lines.map((l) => l.price),
  lines.map((l) => l.quantity),
  lines.map((l) => l.cart_item_id),
  order.id,
  lines.map((l) => l.type_id),
];
