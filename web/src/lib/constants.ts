// Business constants of spec section 9.
export const CATEGORY_PAGE_SIZE = 15;
export const SIMILAR_BOOKS_PAGE_SIZE = 15;
/** Reviews shown at a time under a book (beyond the spec). */
export const REVIEWS_PAGE_SIZE = 5;
export const CLIENT_ORDERS_PAGE_SIZE = 5;
export const BACKOFFICE_ORDERS_PAGE_SIZE = 5;
export const ADMIN_TABLE_PAGE_SIZE = 10;
/** Both tables of All Clients, the clients and their messages (ours: the spec reads them unpaged). */
export const ALL_CLIENTS_PAGE_SIZE = 20;
export const NOTICE_MS = 3000;
export const TOKEN_REFRESH_MS = 540_000;
