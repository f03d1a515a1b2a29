// The domain services, each built once with what it depends on and decorated on the app, so every
// route reads the same instance (fastify/demo's recipe). Services take their repositories, built here
// on the handles (decision 14). Writes go through the audited client:
// it records a write only inside an employee's request (modules/security/audit.ts), so storefront
// calls are not audited and back-office ones always are.
import fp from 'fastify-plugin';
import { accountRepository } from '../modules/accounts/account-repository.ts';
import { type AccountService, accountService } from '../modules/accounts/account-service.ts';
import { cartRepository } from '../modules/cart/cart-repository.ts';
import { type CartService, cartService } from '../modules/cart/cart-service.ts';
import { CACHED_READS } from '../modules/catalog/cached-reads.ts';
import { catalogRepository } from '../modules/catalog/catalog-repository.ts';
import { type CatalogService, catalogService } from '../modules/catalog/catalog-service.ts';
import { catalogAdminRepository } from '../modules/catalog-admin/catalog-admin-repository.ts';
import { type CatalogAdminService, catalogAdminService } from '../modules/catalog-admin/catalog-admin-service.ts';
import { catalogTransferRepository } from '../modules/catalog-admin/catalog-transfer-repository.ts';
import { type CatalogTransferService, catalogTransferService } from '../modules/catalog-admin/catalog-transfer-service.ts';
import { bundledCatalogLookup, openLibraryLookup } from '../modules/catalog-admin/isbn-lookup.ts';
import { type LowStock, lowStock } from '../modules/catalog-admin/low-stock.ts';
import { contactRepository } from '../modules/contact/contact-repository.ts';
import { type ContactService, contactService } from '../modules/contact/contact-service.ts';
import { orderRepository } from '../modules/orders/order-repository.ts';
import { type OrderService, orderService } from '../modules/orders/order-service.ts';
import { type ClientListService, clientListService } from '../modules/people/client-list-service.ts';
import { type EmployeeService, employeeService } from '../modules/people/employee-service.ts';
import { peopleRepository } from '../modules/people/people-repository.ts';
import { dashboardRepository } from '../modules/reports/dashboard-repository.ts';
import { type DashboardService, dashboardService } from '../modules/reports/dashboard-service.ts';
import { type SalesCharts, salesCharts } from '../modules/reports/sales-charts.ts';
import { reviewRepository } from '../modules/reviews/review-repository.ts';
import { type ReviewService, reviewService } from '../modules/reviews/review-service.ts';
import { type AuditLog, auditLog } from '../modules/security/audit-log.ts';
import { wishlistRepository } from '../modules/wishlist/wishlist-repository.ts';
import { type WishlistService, wishlistService } from '../modules/wishlist/wishlist-service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The storefront's catalog reads, on the replica when there is one. */
    catalog: CatalogService;
    catalogAdmin: CatalogAdminService;
    accounts: AccountService;
    dashboard: DashboardService;
    clientList: ClientListService;
    employees: EmployeeService;
    cart: CartService;
    orders: OrderService;
    contact: ContactService;
    reviews: ReviewService;
    wishlist: WishlistService;
    salesCharts: SalesCharts;
    auditLog: AuditLog;
    lowStock: LowStock;
    catalogTransfer: CatalogTransferService;
  }
}

export default fp(
  async (app) => {
    const db = app.backofficeDb;
    // Services that commit catalog changes announce them (plugins/catalog-events.ts).
    const { emit } = app.catalogEvents;
    const { isbnLookup, openLibraryUrl } = app.config;
    const lookup = isbnLookup === 'openlibrary' ? openLibraryLookup(openLibraryUrl) : bundledCatalogLookup();
    app.decorate(
      'catalog',
      catalogService(catalogRepository(app.catalogSql), (key, load) => app.catalogCache.read(key, load, CACHED_READS.browseCounts)),
    );
    app.decorate('catalogAdmin', catalogAdminService(catalogAdminRepository(db), lookup, emit));
    app.decorate('accounts', accountService(accountRepository(db), app.passwords));
    const people = peopleRepository(db);
    app.decorate('dashboard', dashboardService(dashboardRepository(db, app.primarySql)));
    app.decorate('clientList', clientListService(people));
    app.decorate('employees', employeeService(people, accountRepository(db), app.passwords));
    app.decorate('cart', cartService(cartRepository(db, app.primarySql)));
    app.decorate('orders', orderService(orderRepository(db, app.primarySql), emit));
    app.decorate('contact', contactService(contactRepository(db)));
    app.decorate('reviews', reviewService(reviewRepository(db), emit));
    app.decorate('wishlist', wishlistService(wishlistRepository(db)));
    app.decorate('salesCharts', salesCharts(db));
    app.decorate('auditLog', auditLog(db));
    app.decorate('lowStock', lowStock(db, app.primarySql, emit));
    app.decorate(
      'catalogTransfer',
      catalogTransferService(catalogTransferRepository(db, app.databasePool), lookup, app.catalogAdmin, app.log, (changed) =>
        emit({ type: 'catalog.imported', changed }),
      ),
    );
    // Before the server waits for open connections to finish (onClose would come after that wait):
    // a download of the catalog may run for 30 minutes.
    app.addHook('preClose', async () => app.catalogTransfer.stopExports());
  },
  { name: 'services', dependencies: ['config', 'prisma', 'password-check', 'catalog-events', 'catalog-cache'] },
);
