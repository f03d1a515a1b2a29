// The bench's checkout baseline: the same guarantees as our checkout (a verified, live client
// session; an Idempotency-Key replay; the chosen lines locked in book-copy order; totals checked
// against the server's; stock taken only where enough is left; the order, its lines and the emptied
// cart in one transaction), written as directly as node-postgres allows, with no plugin, ORM or
// schema. It runs our checkout's own statements (order-queries.ts), so the ratio is our stack's cost.
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { toCents } from '../../api/src/lib/money.ts';
import {
  type CheckoutLine,
  CREATE_ORDER_SQL,
  createOrderValues,
  LOCK_CART_LINES_SQL,
  ORDER_BY_IDEMPOTENCY_KEY_SQL,
  TAKE_STOCK_SQL,
  takeStockValues,
} from '../../api/src/modules/orders/order-queries.ts';
import { SESSION_LIFETIMES } from '../../api/src/modules/sessions/session-service.ts';
import { verifyAccessToken } from '../../api/src/modules/sessions/tokens.ts';

const { absoluteSeconds, idleSeconds } = SESSION_LIFETIMES.client;
/** The session check and its once-a-minute activity mark, in one statement. */
const LIVE_SESSION_SQL = `
  UPDATE session_families SET last_active_at = CASE WHEN last_active_at < now() - interval '1 minute' THEN now() ELSE last_active_at END
  WHERE id = $1::uuid AND audience = 'client' AND revoked_at IS NULL
    AND started_at > now() - make_interval(secs => ${absoluteSeconds}) AND last_active_at > now() - make_interval(secs => ${idleSeconds})
  RETURNING id`;
interface CheckoutBody {
  shipmentAddress: string;
  totalPrice: number;
  totalQuantity: number;
  cartItemsIds: number[];
}

const toAnswer = (order: { totalPrice: string; createdAt: Date }) => ({ data: { ...order, totalPrice: Number(order.totalPrice) } });

export function bareCheckout(app: FastifyInstance, pool: pg.Pool, jwtSecret: string, onQuery: (sql: string) => void) {
  const query = async <T extends pg.QueryResultRow>(db: pg.Pool | pg.PoolClient, sql: string, values: unknown[] = []) => {
    onQuery(sql);
    return (await db.query<T>(sql, values)).rows;
  };
  app.post<{ Body: CheckoutBody }>('/api/client/orders/', async (request, reply) => {
    const token = /(?:^|;\s*)bs_client_at=([^;]+)/.exec(request.headers.cookie ?? '')?.[1];
    if (!token) return reply.code(401).send();
    const { subjectId: clientId, familyId } = verifyAccessToken(jwtSecret, token, 'client');
    if (!(await query(pool, LIVE_SESSION_SQL, [familyId])).length) return reply.code(401).send();
    const key = request.headers['idempotency-key'] as string | undefined;
    if (key) {
      const [earlier] = await query<{ totalPrice: string; createdAt: Date }>(pool, ORDER_BY_IDEMPOTENCY_KEY_SQL, [clientId, key]);
      if (earlier) return toAnswer(earlier);
    }
    const { shipmentAddress, totalPrice, totalQuantity, cartItemsIds } = request.body;
    const db = await pool.connect();
    try {
      await query(db, 'BEGIN');
      const lines = await query<CheckoutLine>(db, LOCK_CART_LINES_SQL, [clientId, cartItemsIds]);
      const cents = lines.reduce((sum, l) => sum + toCents(l.price) * l.quantity, 0);
      const quantity = lines.reduce((sum, l) => sum + l.quantity, 0);
      if (
        lines.length !== cartItemsIds.length ||
        lines.some((l) => !l.is_available) ||
        cents !== toCents(totalPrice) ||
        quantity !== totalQuantity
      ) {
        await query(db, 'ROLLBACK');
        return reply.code(409).send();
      }
      const taken = await query(db, TAKE_STOCK_SQL, takeStockValues(lines));
      if (taken.length !== new Set(lines.map((l) => l.book_copy_id)).size) {
        await query(db, 'ROLLBACK');
        return reply.code(409).send();
      }
      const [order] = await query<{ totalPrice: string; createdAt: Date }>(
        db,
        CREATE_ORDER_SQL,
        createOrderValues(
          {
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
