import type { FastifyPluginAsync } from 'fastify';
import { documentRoutes } from '../document-routes.ts';
import accountRoutes from './account.ts';
import auditLogRoutes from './audit-log.ts';
import authorRoutes from './authors.ts';
import bookCopyRoutes from './book-copies.ts';
import bookRoutes from './books.ts';
import catalogTransferRoutes from './catalog-transfer.ts';
import clientsRoutes from './clients.ts';
import contactRoutes from './contact.ts';
import employeesRoutes from './employees.ts';
import { lowStockRoutes, lowStockThresholdRoutes } from './low-stock.ts';
import mailRoutes from './mail.ts';
import orderRoutes from './orders.ts';
import reviewRoutes from './reviews.ts';
import secondFactorRoutes from './second-factor.ts';
import statisticsRoutes from './statistics.ts';

/**
 * The back-office API, gated once per subtree: the Seller's menu (Dashboard, Orders, Low Stock,
 * Account) is open to both roles; everything else answers a Seller 403. No employee session: 401.
 * Under STAFF_MFA=required an Admin without a second factor reaches only its enrolment, and the
 * routes marked `stepUp` need a second factor used within the last 10 minutes (plugins/second-factor.ts).
 */
const employeeRoutes: FastifyPluginAsync = async (app) => {
  documentRoutes(app, { security: [{ employeeSession: [] }] });
  // Back-office answers: never kept by a browser or proxy cache.
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });
  await app.register(async (sellerAndAdmin) => {
    sellerAndAdmin.addHook('onRequest', app.requireEmployee(['Admin', 'Seller']));
    sellerAndAdmin.addHook('onRequest', app.secondFactorPolicy);
    sellerAndAdmin.addHook('preHandler', app.requireStepUp);
    sellerAndAdmin.addHook('onRequest', app.asAuditActor);
    await sellerAndAdmin.register(statisticsRoutes, { prefix: '/employee/statistics' });
    await sellerAndAdmin.register(orderRoutes, { prefix: '/employee/order' });
    await sellerAndAdmin.register(accountRoutes, { prefix: '/employee' });
    await sellerAndAdmin.register(lowStockRoutes, { prefix: '/employee/low-stock' });
    await sellerAndAdmin.register(secondFactorRoutes, { prefix: '/employee/second-factor' });
  });
  await app.register(async (adminOnly) => {
    adminOnly.addHook('onRequest', app.requireEmployee(['Admin']));
    adminOnly.addHook('onRequest', app.secondFactorPolicy);
    adminOnly.addHook('preHandler', app.requireStepUp);
    adminOnly.addHook('onRequest', app.asAuditActor);
    await adminOnly.register(clientsRoutes, { prefix: '/employee/statistics' });
    await adminOnly.register(authorRoutes);
    await adminOnly.register(bookRoutes, { prefix: '/employee/book' });
    await adminOnly.register(bookCopyRoutes, { prefix: '/employee/book-copy' });
    await adminOnly.register(employeesRoutes, { prefix: '/employee' });
    await adminOnly.register(contactRoutes, { prefix: '/employee/contact' });
    await adminOnly.register(reviewRoutes, { prefix: '/employee/review' });
    await adminOnly.register(lowStockThresholdRoutes, { prefix: '/employee/low-stock' });
    await adminOnly.register(auditLogRoutes, { prefix: '/employee/audit-log' });
    await adminOnly.register(catalogTransferRoutes, { prefix: '/employee/catalog' });
    await adminOnly.register(mailRoutes, { prefix: '/employee/mail' });
  });
};

export default employeeRoutes;
