import type { FastifyPluginAsync } from 'fastify';
import { appendHook } from '../../lib/route-hooks.ts';
import { documentRoutes } from '../document-routes.ts';
import cartRoutes from './cart.ts';
import manageRoutes from './manage.ts';
import orderRoutes from './orders.ts';
import clientReviewRoutes from './reviews.ts';
import wishlistRoutes from './wishlist.ts';

/** Everything under /api/client answers only a signed-in client (401 otherwise), and only about that client. */
const clientRoutes: FastifyPluginAsync = async (app) => {
  documentRoutes(app, { security: [{ clientSession: [] }] });
  app.addHook('onRequest', app.requireClient.onRequest);
  // A route that runs the check beside its body (checkout) awaits it before validation, ahead of the
  // input checks' own route hooks; every other route has it already, and gets no extra hook.
  app.addHook('onRoute', (route) => {
    if (route.config?.sessionCheckBesideBody) route.preValidation = appendHook(route.preValidation, app.requireClient.preValidation, true);
  });
  // Personal answers: never kept by a browser or proxy cache.
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });
  await app.register(cartRoutes, { prefix: '/cart' });
  await app.register(manageRoutes, { prefix: '/manage' });
  await app.register(orderRoutes, { prefix: '/orders' });
  await app.register(clientReviewRoutes, { prefix: '/reviews' });
  await app.register(wishlistRoutes);
};

export default clientRoutes;
