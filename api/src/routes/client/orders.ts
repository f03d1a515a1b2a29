import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { refuse } from '../../lib/refusals.ts';
import type { PlacedWithKey } from '../../modules/orders/order-service.ts';
import { signedInClient } from '../../plugins/sessions.ts';
import { holdsNul } from '../../plugins/strict-input.ts';
import { IDEMPOTENCY_KEY_LENGTH, IdempotencyKeyHeader, PageSize, PositiveInt, responses } from '../../schemas/common.ts';
import { CheckoutBody } from '../../schemas/orders.ts';
import { documentRoutes } from '../document-routes.ts';

/**
 * Cancels one client may ask for in a day. A shopper cancels an order now and then; a loop of
 * checkouts and cancels would otherwise grow the orders, their lines, the ledger and the mail outbox
 * without bound, the stock coming back each time.
 */
export const CANCELS_PER_CLIENT_PER_DAY = 10;
/** A client's checkouts running or waiting in one instance at once; past them, 429. */
export const CHECKOUTS_AT_ONCE_PER_CLIENT = 3;

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * A checkout's read of its Idempotency-Key's earlier order, started before its handler runs (null
     * on every other request). A property every request has from the start, not a WeakMap keyed by
     * the request: a Set keyed by Fastify's replies measured costly (plugins/handler-timeout.ts).
     */
    placedEarlier: Promise<PlacedWithKey> | null;
  }
}

const orderRoutes: FastifyPluginAsyncTypebox = async (app) => {
  documentRoutes(app, { tags: ['Client orders'] });
  /**
   * Each client's checkouts in this instance, one after another: the last one's settling, and how many
   * are running or waiting. A checkout locks its cart lines and copies and holds a pooled connection
   * while it waits for them, so a client's burst of checkouts at once held the whole pool waiting on
   * its own rows, and every other shopper's call waited for a connection. Queued here they hold none,
   * and a retry with the first one's key, sent while it runs, then gets its order. A queue holds
   * CHECKOUTS_AT_ONCE_PER_CLIENT at most. One answered 503 for its time while it waited does not run;
   * one whose time runs out as it runs is refused its COMMIT (lib/write-budget.ts).
   */
  const queues = new Map<number, { last: Promise<unknown>; size: number }>();
  app.decorateRequest('placedEarlier', null);
  app.post(
    '/',
    {
      // Counted in shop_checkouts_total{outcome} (plugins/metrics.ts).
      // The session's check runs while the body is parsed (plugins/sessions.ts, requireClient).
      config: { outcomeMetric: 'checkout', sessionCheckBesideBody: true },
      // After every onRequest check (the cross-site one included), the key's earlier order is read
      // while the session's check and the body's parsing go on: one round trip less to wait for.
      // A key the schema or the input checks will refuse is not looked up; the handler awaits the
      // read, and only once the session is confirmed.
      preParsing: (request, _reply, payload, done) => {
        const key = request.headers['idempotency-key'];
        const client = request.clientToConfirm;
        if (
          client &&
          typeof key === 'string' &&
          key.length >= IDEMPOTENCY_KEY_LENGTH.minLength &&
          key.length <= IDEMPOTENCY_KEY_LENGTH.maxLength &&
          !holdsNul(key)
        ) {
          const read = app.orders.placedWithKey(client.id, key);
          read.catch(() => {}); // a request refused before its handler never awaits it
          request.placedEarlier = read;
        }
        done(null, payload);
      },
      schema: {
        operationId: 'placeOrder',
        summary: 'Check out the chosen cart lines',
        description:
          'Totals are recomputed on the server; a mismatch is a 409 whose error.details carries the current totals. ' +
          'An Idempotency-Key header makes a retried checkout return the first order; the same key with a different body is a 422.',
        headers: IdempotencyKeyHeader,
        body: CheckoutBody,
        response: responses(Type.Ref('ClientOrder'), 400, 401, 404, 409, 422, 429),
      },
    },
    async (request, reply) => {
      const client = signedInClient(request);
      const key = request.headers['idempotency-key'];
      const queue = queues.get(client.id) ?? { last: Promise.resolve(), size: 0 };
      if (queue.size >= CHECKOUTS_AT_ONCE_PER_CLIENT) throw refuse.checkoutsQueued();
      queue.size++;
      queues.set(client.id, queue);
      const checkout = queue.last.then(() => {
        // Answered meanwhile (its budget spent, its client gone): it does not run.
        if (reply.sent || reply.raw.destroyed) return null;
        return app.orders.checkout(client.id, request.body, key, request.placedEarlier ?? undefined);
      });
      queue.last = checkout.then(
        () => {},
        () => {},
      );
      try {
        const order = await checkout;
        return order === null ? reply : { data: order };
      } finally {
        if (--queue.size === 0) queues.delete(client.id);
      }
    },
  );

  app.post(
    '/:orderId/cancel',
    {
      // Counted per client, once the session is known (requireClient runs on the request), in the shared counters.
      config: {
        rateLimit: {
          max: CANCELS_PER_CLIENT_PER_DAY,
          timeWindow: '1 day',
          hook: 'preHandler',
          keyGenerator: (request) => `client:${signedInClient(request).id}`,
        },
      },
      schema: {
        operationId: 'cancelMyOrder',
        summary: 'Cancel my order while it is pending or Processing',
        description:
          "Puts the stock back in the same transaction and sends the status e-mail. Another client's order is a 404; " +
          'an order already cancelled, or shipped, is a 409 whose message says why (error.details.status is its status). ' +
          `A client may ask ${CANCELS_PER_CLIENT_PER_DAY} times a day; beyond that, 429 with Retry-After.`,
        params: Type.Object({ orderId: PositiveInt }),
        response: responses(Type.Ref('ClientOrder'), 400, 401, 404, 409, 429),
      },
    },
    async (request) => {
      const order = await app.orders.cancel(request.params.orderId, { clientId: signedInClient(request).id });
      return { data: order };
    },
  );

  app.get(
    '/:pageNumber,:pageSize',
    {
      schema: {
        operationId: 'listMyOrders',
        summary: 'My orders, newest first',
        params: Type.Object({ pageNumber: PositiveInt, pageSize: PageSize }),
        response: responses(Type.Object({ orders: Type.Array(Type.Ref('ClientOrder')), totalPages: Type.Integer() }), 400, 401),
      },
    },
    async (request) => ({
      data: await app.orders.clientPage(signedInClient(request).id, request.params.pageNumber, request.params.pageSize),
    }),
  );
};

export default orderRoutes;
