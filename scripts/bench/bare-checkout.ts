// The bench's checkout baseline: the same guarantees as our checkout (a verified, live client
// session; an Idempotency-Key replay; the chosen lines locked in book-copy order; totals checked
// against the server's; stock taken only where enough is left; the order, its lines and the emptied
// cart in one transaction), written as directly as node-postgres allows, with no plugin, ORM or
// schema. It runs our own statements (the session check, order-queries.ts) as prepared statements,
// as we do, so the ratio is our stack's cost.
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { toCents } from '../../api/src/lib/money.ts';
import {
  type CheckoutLine,
  type ClientOrderRow,
  CREATE_ORDER_SQL,
  createOrderValues,
  LOCK_CART_LINES_SQL,
  ORDER_BY_IDEMPOTENCY_KEY_SQL,
  TAKE_STOCK_SQL,
  takeStockValues,
} from '../../api/src/modules/orders/order-queries.ts';
import { toClientOrder } from '../../api/src/modules/orders/order-service.ts';
import { FAMILY_WITH_ACTIVITY_SQL } from '../../api/src/modules/sessions/session-repository.ts';
import { endedBecause, SESSION_LIFETIMES } from '../../api/src/modules/sessions/session-service.ts';
import { verifyAccessToken } from '../../api/src/modules/sessions/tokens.ts';
import { preparedStatement } from '../../api/src/plugins/prisma.ts';

interface CheckoutBody {
  shipmentAddress: string;
  totalPrice: number;
  totalQuantity: number;
  cartItemsIds: number[];
}

/** The order as ours answers it, shaped by the same function (the client's view of a row). */
const toAnswer = (order: ClientOrderRow) => ({ data: toClientOrder(order) });

/**
 * The session check our auth plugin runs for a signed-in call: the access token's signature, then
 * its session family read (and its activity marked) in one statement. Answers the subject's id, or
 * null when the call is not signed in.
 */
export function bareSession(pool: pg.Pool, jwtSecret: string, onQuery: (sql: string) => void) {
  return async (audience: 'client' | 'employee', cookie: string | undefined) => {
    const token = new RegExp(`(?:^|;\\s*)bs_${audience}_at=([^;]+)`).exec(cookie ?? '')?.[1];
    if (!token) return null;
    const { subjectId, familyId, generation } = verifyAccessToken(jwtSecret, token, audience);
    const now = new Date();
    const { idleSeconds, absoluteSeconds } = SESSION_LIFETIMES[audience];
    onQuery(FAMILY_WITH_ACTIVITY_SQL);
    const [family] = (
      await pool.query<Parameters<typeof endedBecause>[0] & object>(
        preparedStatement(FAMILY_WITH_ACTIVITY_SQL, [familyId, audience, idleSeconds, absoluteSeconds, now, generation]),
      )
    ).rows;
    return endedBecause(family ?? null, audience, now.getTime(), generation) ? null : subjectId;
  };
}

export function bareCheckout(app: FastifyInstance, pool: pg.Pool, jwtSecret: string, onQuery: (sql: string) => void) {
  const query = async <T extends pg.QueryResultRow>(db: pg.Pool | pg.PoolClient, sql: string, values: unknown[] = []) => {
    onQuery(sql);
    // Transaction control as plain text, as our sqlWriter sends it; every other statement prepared.
    const control = sql === 'BEGIN' || sql === 'COMMIT' || sql === 'ROLLBACK';
    return (await db.query<T>(control ? sql : preparedStatement(sql, values))).rows;
  };
  const signedIn = bareSession(pool, jwtSecret, onQuery);
  app.post<{ Body: CheckoutBody }>('/api/client/orders/', async (request, reply) => {
    const clientId = await signedIn('client', request.headers.cookie);
    if (clientId === null) return reply.code(401).send();
    const key = request.headers['idempotency-key'] as string | undefined;
    if (key) {
      const [earlier] = await query<ClientOrderRow>(pool, ORDER_BY_IDEMPOTENCY_KEY_SQL, [clientId, key]);
      if (earlier) return toAnswer(earlier);
    }
    const { shipmentAddress, totalPrice, totalQuantity, cartItemsIds } = request.body;
    // As ours refuses it (EMPTY_ORDER): no line, no order.
    if (!cartItemsIds.length) return reply.code(400).send();
    const db = await pool.connect();
    try {
      await query(db, 'BEGIN');
      const lines = await query<CheckoutLine>(db, LOCK_CART_LINES_SQL, [clientId, cartItemsIds]);
      const cents = lines.reduce((sum, l) => sum + toCents(l.price) * l.quantity, 0);
      const quantity = lines.reduce((sum, l) => sum + l.quantity, 0);
      if (
        lines.length !== cartItemsIds.length ||
        lines.some((l) => !l.is_available || l.quantity > l.stock) ||
        cents !== toCents(totalPrice) ||
        quantity !== totalQuantity
      ) {
        await query(db, 'ROLLBACK');
        return reply.code(409).send();
      }
      const taken = await query<{ orderId: number }>(db, TAKE_STOCK_SQL, takeStockValues(lines));
      if (taken.length !== new Set(lines.map((l) => l.book_copy_id)).size) {
        await query(db, 'ROLLBACK');
        return reply.code(409).send();
      }
      const [order] = await query<ClientOrderRow>(
        db,
        CREATE_ORDER_SQL,
        createOrderValues(
          {
            id: taken[0]!.orderId,
            clientId,
            shipmentAddress,
            totalQuantity,
            totalPrice: (cents / 100).toFixed(2),
            idempotencyKey: key ?? null,
            idempotencyRequestHash: null,
          },
          lines,
        ),
      );
      await query(db, 'COMMIT');
      return toAnswer(order!);
    } catch (error) {
      await db.query('ROLLBACK');
      throw error;
    } finally {
      db.release();
    }
  });
}
