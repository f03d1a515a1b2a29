// Every screen's path, in one place: links, redirects and route tables name them from here, never
// as string literals. The spec's own spellings ('/Detail', '/searchresult'); routes match any
// letter case, so '/Login' from the spec's screens reaches paths.login.
// Its own entry point: the initial bundle takes this file, not the form rules.
import { authorPagePath, bookPagePath, SEARCH_RESULTS_PATH } from '@bookshop/rules/page-addresses';

export const paths = {
  home: '/',
  about: '/about',
  contact: '/contact',
  login: '/login',
  /** The sign-in's second step for an employee with a second factor (beyond the spec). */
  secondFactor: '/login/second-factor',
  signup: '/signup',
  /** Forgot password (beyond the spec): ask for the provider's reset e-mail. */
  forgotPassword: '/forgot-password',
  /** The identity provider's action URL, where its e-mails' links lead: a sign-up's verification, or a new password. */
  resetPassword: '/reset-password',
  cart: '/cart',
  detail: '/Detail',
  /** A book's shareable page, /books/{id}-{slug}: the same screen as /Detail, for the book its address names. */
  book: bookPagePath,
  bookRoute: '/books/:bookRef',
  /** An author's page, /authors/{id}-{slug}: their books on sale, with the ratings (beyond the spec). */
  author: authorPagePath,
  authorRoute: '/authors/:authorRef',
  orders: '/orders',
  account: '/account',
  /** An e-mail's unsubscribe link: asks before turning a list of e-mails off (beyond the spec). */
  unsubscribe: '/unsubscribe',
  /** The copies a client wishes for (beyond the spec). */
  wishlist: '/wishlist',
  searchResult: SEARCH_RESULTS_PATH,
  /** A category's page (spec 2.1: the top bar goes to '/Fantasy', Show More to '/fantasy'; both reach it). */
  category: (name: string) => `/${name}`,
  backoffice: {
    dashboard: '/dashboard',
    clients: '/clients',
    employees: '/employees',
    authors: '/authors',
    books: '/books',
    copies: '/bookscopies',
    orders: '/orders',
    account: '/employeeaccount',
    /** Buyers' reviews, which an Admin can hide (beyond the spec). */
    reviews: '/reviews',
    /** Copies at or below the Admin's threshold, with a restock (Admin and Seller, beyond the spec). */
    lowStock: '/lowstock',
    /** Who changed what, and the security events (Admin, beyond the spec). */
    auditLog: '/auditlog',
    /** Books with their copies as CSV, out and in (Admin, beyond the spec). */
    importExport: '/importexport',
    /** The e-mails the shop could not deliver, sent again on the Admin's word (beyond the spec). */
    mail: '/mail',
  },
} as const;
