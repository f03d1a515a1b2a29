// The query cache's keys (Medusa's query-key factories): every read and every invalidation names a
// resource's keys the same way, so a write never misses a list. Each audience has one root, which
// signing out drops whole; the back-office's resources live under `employeeRoot`
// (features/backoffice/api/query-keys.ts).
export const catalogKeys = {
  /** Everything public: what an order (stock, sales) makes stale. */
  all: ['catalog'] as const,
  types: ['catalog', 'types'] as const,
  home: (path: string) => ['catalog', 'home', path] as const,
  category: (type: string, pageNumber: number, pageSize: number) =>
    ['catalog', 'category', type.toLowerCase(), pageNumber, pageSize] as const,
  book: (id: number) => ['catalog', 'book', id] as const,
  author: (id: number, pageNumber: number, pageSize: number) => ['catalog', 'author', id, pageNumber, pageSize] as const,
  /** A copy's book's reviews; `reviews(id)` alone is every page of them. */
  reviews: (copyId: number, pageNumber?: number) =>
    (pageNumber === undefined ? ['catalog', 'reviews', copyId] : ['catalog', 'reviews', copyId, pageNumber]) as readonly unknown[],
};

export const clientKeys = {
  /** Everything of the signed-in client. */
  all: ['client'] as const,
  info: ['client', 'info'] as const,
  /** Which e-mails the client gets besides order confirmations. */
  mailPreferences: ['client', 'mail-preferences'] as const,
  /** The client's live sessions (the Account screen's list). */
  sessions: ['client', 'sessions'] as const,
  cart: ['client', 'cart'] as const,
  /** Every page of My Orders. */
  orders: ['client', 'orders'] as const,
  ordersPage: (pageNumber: number) => ['client', 'orders', pageNumber] as const,
  wishlist: ['client', 'wishlist'] as const,
  notices: ['client', 'notices'] as const,
  /** My rating of a copy's book. */
  review: (copyId: number) => ['client', 'review', copyId] as const,
};

export const employeeRoot = ['employee'] as const;
