// Every refusal the services give, declared once: its status, its code and the message a screen
// shows (the spec's own words where the spec has them, from @bookshop/rules where the forms check
// the same rule). Services `throw refuse.x(...)`; plugins/errors.ts sends `{ data: null, error }`.
import { CANCEL_REASON_REQUIRED, FORM_MESSAGES, isCancellable } from '@bookshop/rules';
import { waitInWords } from './dates.ts';
import { AppError, badRequest, conflict, forbidden, notFound, refusal, unauthorized, unavailable } from './errors.ts';
import { ORDER_TOO_LARGE_MESSAGE } from './money.ts';

/** An export takes minutes: asking again sooner would most likely be refused again. */
const EXPORT_RETRY_AFTER_SECONDS = 60;

export const refuse = {
  // Forms (spec 5)
  form: (message: string, code?: string) => badRequest(message, code),
  allFieldsRequired: () => badRequest(FORM_MESSAGES.allFieldsRequired),

  // Accounts and employees
  invalidLogin: () => refusal(401, 'INVALID_CREDENTIALS', FORM_MESSAGES.invalidLogin),
  emailNotVerified: () => forbidden('Email is not verified yet.'),
  verifiedEmailMismatch: () => forbidden('The verified e-mail does not match the account.'),
  /** One message wherever an e-mail is already a client's or an employee's sign-in name. */
  emailTaken: () => conflict('An account with this e-mail already exists.'),
  emailChangedMeanwhile: () => conflict('Your e-mail was changed meanwhile. Reload your information and save again.'),
  accountGone: () => notFound('Your account no longer exists.'),
  /** A save of one's own information on a version no longer current (412), with the information now. */
  ownInformationChanged: (current: object) =>
    refusal(
      412,
      'STALE_VERSION',
      'Your information was changed elsewhere since you opened it (another tab, say). The form now shows what is saved, with your changes on top: check them and save again.',
      { current },
    ),
  /** Each change of an employee's sign-in e-mail writes to the address it replaces: a few a day. */
  tooManyEmailChanges: (most: number, retryAfterSeconds: number) =>
    new AppError(429, 'TOO_MANY_EMAIL_CHANGES', `Your e-mail can be changed ${most} times a day. Please try again later.`, {
      'retry-after': String(retryAfterSeconds),
    }),
  passwordsMissing: () => badRequest(FORM_MESSAGES.passwordsMissing),
  wrongCurrentPassword: () => badRequest('The current password is incorrect.', 'WRONG_PASSWORD'),
  passwordForFirstFactor: () => badRequest('Enter your password to set up your first second factor.', 'PASSWORD_REQUIRED'),
  passwordForEmailChange: () => badRequest('Enter your current password to change your e-mail.', 'PASSWORD_REQUIRED'),
  passwordForEndingSessions: () => badRequest('Enter your password to end sessions.', 'PASSWORD_REQUIRED'),
  weakPassword: (message: string) => badRequest(message, 'WEAK_PASSWORD'),
  gender: () => badRequest('Gender must be Male or Female.'),
  employeeEmail: () => badRequest(FORM_MESSAGES.emailInvalid),
  birthDate: () => badRequest('Birth date must be a real past date (YYYY-MM-DD), from 1900 on.'),
  role: () => badRequest('Role must be Admin or Seller.'),
  deleteSelf: () => forbidden('You cannot delete your own account.'),
  noEmployee: () => notFound('This employee does not exist.'),
  deleteAdmin: () => forbidden('An Admin cannot be deleted.'),
  changeOwnRole: () => forbidden('You cannot change your own role.'),
  lastAdmin: () => conflict('The shop must keep at least one Admin.'),

  // Staff second factor (modules/second-factor, beyond the spec)
  /** The sign-in's step after the password is missing, used, or older than its few minutes. */
  signInStepExpired: () => refusal(401, 'SECOND_FACTOR_EXPIRED', 'This sign-in has expired. Please sign in again.'),
  /**
   * A refresh token from before its session's tokens were renewed (a step-up, an enrolment, a new password): refused,
   * and the browser's cookies left alone, since the renewal's answer may have set the new ones already
   * (the web app asks once more, a moment later).
   */
  sessionRenewed: () => refusal(401, 'SESSION_RENEWED', 'Your session was renewed. Please try again.'),
  /**
   * A re-authentication (a step-up, an enrolment, a new password) from a session another one renewed
   * a moment before (two tabs at once): nothing of it is kept. Not a 401, which the web app would
   * answer by sending it again with a spent code or an old password.
   */
  renewedMeanwhile: () =>
    refusal(409, 'RENEWED_MEANWHILE', 'This session was just confirmed in another window. Please reload the page and try again.'),
  wrongSecondFactor: () => badRequest('That code or passkey was not accepted. Please try again.', 'WRONG_SECOND_FACTOR'),
  wrongSetupCode: () =>
    badRequest('That code does not match. Check the time on your phone, then type the code your app shows now.', 'WRONG_SECOND_FACTOR'),
  noPendingTotpSetup: () => conflict('Start the authenticator app setup first.'),
  passkeyNotRegistered: () => badRequest('The passkey could not be registered. Please try again.', 'WRONG_SECOND_FACTOR'),
  noPasskey: () => notFound('No such passkey.'),
  noSecondFactor: () => notFound('This employee has no second factor.'),
  /** A session's last wrong step-up: it has ended (second-factor-service.ts). */
  stepUpFailedTooOften: () => unauthorized('Too many wrong codes. Your session has ended. Please sign in again.'),
  /** The screen turns this code into a prompt for the second factor. */
  stepUpRequired: (minutes: number) =>
    refusal(403, 'STEP_UP_REQUIRED', `Confirm it is you: this needs your second factor, used within the last ${minutes} minutes.`),
  secondFactorEnrolmentRequired: () =>
    refusal(
      403,
      'SECOND_FACTOR_ENROLMENT_REQUIRED',
      'Admins must set up a second factor (an authenticator app or a passkey) before anything else.',
    ),
  lastAdminSecondFactor: () =>
    conflict('No Admin would have a second factor left. Add another factor first, or another Admin must set one up.'),
  demoteLastAdminWithFactor: () =>
    conflict('This is the only Admin with a second factor. Another Admin must set one up before this one stops being an Admin.'),
  resetOwnSecondFactor: () => forbidden('Remove your own second factors on your Account screen.'),

  // Catalog, as the storefront reads it
  noCategory: (name: string) => notFound(`There is no category named '${name}'.`),
  bookUnavailable: () => notFound('This book is not available.'),
  reviewNotAllowed: () => forbidden('You can rate a book once an order of it has shipped.'),
  noReview: () => notFound('No review found.'),
  reviewChangedSinceRead: () =>
    refusal(412, 'STALE_VERSION', 'The reviewer changed this review since you loaded it. Read it again before showing it.'),
  wishlistFull: (max: number) => conflict(`Your wishlist is full (${max} books). Remove one to add another.`),
  wishlistBusy: () => conflict('Your wishlist is being changed at this moment. Please try again.'),
  emptySearch: () => badRequest('Please enter a title or an author to search for.'),
  searchTooLong: () => badRequest('The search text is too long.'),

  // Catalog, as the back-office edits it
  emptyName: (what: string) => badRequest(`The ${what} name must not be empty.`),
  nameTooLong: (what: string, max: number) => badRequest(`The ${what} name is too long (at most ${max} characters).`),
  copyPrice: () => badRequest('Price must be 0 or more, with at most 2 decimals.'),
  noAuthor: () => notFound('No author found.'),
  authorHasBooks: (books: number) =>
    conflict(`This author still has ${books} book${books === 1 ? '' : 's'}; delete or reassign them first.`),
  noBook: () => notFound('No book found.'),
  invalidIsbn: () => badRequest('This is not a valid ISBN-10 or ISBN-13.', 'INVALID_ISBN'),
  isbnExists: () => conflict('A book with this ISBN already exists.'),
  isbnNotFound: () => notFound('No book was found for this ISBN.'),
  noCategories: () => conflict('The shop has no categories yet.'),
  noAuthorWithId: (id: number) => badRequest(`There is no author with ID ${id}.`),
  noCategoryWithId: (id: number) => badRequest(`There is no category with ID ${id}.`),
  publishedDate: () => badRequest('Published must be a real date (YYYY-MM-DD), from year 1 to 9999.'),
  bookOrdered: () => conflict('Copies of this book have been ordered, so it cannot be deleted.'),
  noCopy: () => notFound('No book copy found.'),
  noBookWithId: (id: number) => badRequest(`There is no book with ID ${id}.`),
  // Bulk import (beyond the spec)
  /** Also a check replaced by the same Admin's newer one (in another tab, say) before it ran. */
  noImport: () => notFound('No such import. A newer check replaces one not run: check the file again.'),
  importAlreadyRun: () => conflict('This import has already run. Check the file again to import it once more.'),
  importHasInvalidRows: () => conflict('The file has invalid rows. Fix them, or choose to skip them.'),
  importBusy: () => conflict('Another import is running. Wait for it to finish.'),
  importCheckExpired: () => conflict('This check is more than 30 minutes old, and the shop may have changed since. Check the file again.'),
  exportsBusy: (atOnce: number) =>
    unavailable(`${atOnce} catalog exports are already running. Try again when one of them has finished.`, EXPORT_RETRY_AFTER_SECONDS),
  noDeadLetter: () => notFound('There is no such undelivered e-mail.'),
  badUnsubscribeLink: () => badRequest('This unsubscribe link is not valid. Change your e-mail choices on your account page.'),

  /** A save made on a version of the copy that is no longer current (412): what moved, and the copy now. */
  copyChanged: (current: { quantity: number; price: number; isAvailable: boolean }, soldSince: number) => {
    const units = (n: number) => (n === 1 ? '1 copy was' : `${n} copies were`);
    const what =
      soldSince > 0
        ? `${units(soldSince)} sold since you opened this: stock is now ${current.quantity}.`
        : soldSince < 0
          ? `${units(-soldSince)} returned by cancelled orders since you opened this: stock is now ${current.quantity}.`
          : `Someone else changed this copy since you opened it: stock is now ${current.quantity}, price ${current.price.toFixed(2)}, ${current.isAvailable ? 'available' : 'not available'}.`;
    return refusal(412, 'STALE_VERSION', `${what} Check your changes and save again.`, { current });
  },
  /** A delete asked of a version of the copy that is no longer current (412), with the copy now: a restock may have come since. */
  copyChangedBeforeDelete: (current: { quantity: number; price: number; isAvailable: boolean }) =>
    refusal(
      412,
      'STALE_VERSION',
      `Someone else changed this copy since you opened it: stock is now ${current.quantity}. Look at it again before deleting it.`,
      { current },
    ),
  /** A delete asked of a version of the book that is no longer current (412), with the book now. */
  bookChangedBeforeDelete: (current: { name: string }) =>
    refusal(412, 'STALE_VERSION', 'Someone else changed this book since you opened it. Look at it again before deleting it.', { current }),
  /** A save made on a version of the book that is no longer current (412), with the book now. */
  bookChanged: (current: { name: string }) =>
    refusal(412, 'STALE_VERSION', 'Someone else changed this book since you opened it. Check your changes and save again.', { current }),
  /** A delete asked of a version of the author that is no longer current (412), with the author now. */
  authorChangedBeforeDelete: (current: { fullName: string }) =>
    refusal(
      412,
      'STALE_VERSION',
      `Someone else renamed this author since you opened it: the name is now "${current.fullName}". Look at it again before deleting it.`,
      { current },
    ),
  /** A rename made on a version of the author that is no longer current (412), with the author now. */
  authorChanged: (current: { fullName: string }) =>
    refusal(
      412,
      'STALE_VERSION',
      `Someone else renamed this author since you opened it: the name is now "${current.fullName}". Check your change and save again.`,
      { current },
    ),
  copyOrdered: () => conflict('This copy has been ordered, so it cannot be deleted; mark it unavailable instead.'),
  /** The contact form's shop-wide hour is full: spread over many addresses, messages still end. */
  contactFormBusy: (retryAfterSeconds: number) =>
    new AppError(429, 'CONTACT_FORM_BUSY', 'The shop has received too many messages this hour. Please try again later.', {
      'retry-after': String(retryAfterSeconds),
    }),
  noMessage: () => notFound('This message does not exist.'),

  // Cart and checkout
  outOfStock: () => refusal(409, 'OUT_OF_STOCK', FORM_MESSAGES.outOfStock),
  notInCart: () => notFound('This item is not in your cart.'),
  cartFull: (max: number) =>
    refusal(409, 'CART_FULL', `Your cart holds ${max} different books, the most one order takes. Check out or remove one first.`),
  onlyLeft: (left: number) => conflict(`Only ${left} left in stock.`),
  orderTooLarge: () => refusal(409, 'ORDER_TOO_LARGE', ORDER_TOO_LARGE_MESSAGE),
  emptyOrder: () => badRequest('Your cart is empty.', 'EMPTY_ORDER'),
  /** A limit reached (429), `what` being what it counts: requests, sign-ins. Retry-After is whole seconds, at least one. */
  rateLimited: (what: string, waitMs: number) =>
    new AppError(429, 'RATE_LIMITED', `Too many ${what}. Please try again in ${waitInWords(waitMs)}.`, {
      'retry-after': String(Math.max(1, Math.ceil(waitMs / 1000))),
    }),
  /** A client's checkouts already running or waiting in this instance (429): the screen sends one at a time. */
  checkoutsQueued: () =>
    new AppError(429, 'RATE_LIMITED', 'Your earlier checkouts are still being processed. Please wait a moment, then look at your orders.', {
      'retry-after': '2',
    }),
  /** `what` the key was first sent with: an order, a restock. */
  idempotencyKeyReused: (what: 'order' | 'restock') =>
    refusal(422, 'IDEMPOTENCY_KEY_REUSED', `This Idempotency-Key was already used for a different ${what}; use a new key.`),
  linesGone: () => notFound('Some of these items are no longer in your cart.'),
  lineWithdrawn: (name: string, bookCopyId: number) =>
    refusal(409, 'UNAVAILABLE', `Sorry, '${name}' is no longer available: remove it from your cart to order the rest.`, { bookCopyId }),
  cartChanged: (current: { totalPrice: number; totalQuantity: number }) =>
    conflict('Your cart has changed: please review the new total.', current),
  lineShort: (name: string, bookCopyId: number) =>
    refusal(409, 'OUT_OF_STOCK', `Sorry, '${name}' is out of stock in the quantity you chose.`, { bookCopyId }),
  status: (allowed: readonly string[]) => badRequest(`Status must be one of: ${allowed.join(', ')}.`),
  noOrder: () => notFound('This order does not exist.'),
  // Cancelling an order (beyond the spec)
  /** Only a pending or Processing order that never shipped can be cancelled; `order` is as it is now. */
  orderNotCancellable: ({ status, shippedAt }: { status: string; shippedAt: Date | null }) =>
    refusal(
      409,
      'ORDER_NOT_CANCELLABLE',
      status === 'cancelled'
        ? 'This order is already cancelled.'
        : status === 'failed'
          ? 'This order failed, so there is nothing to cancel.'
          : shippedAt !== null && isCancellable(status)
            ? 'This order has already been shipped and can no longer be cancelled.'
            : `This order is ${status} and can no longer be cancelled.`,
      { status },
    ),
  cancelReasonRequired: () => badRequest(CANCEL_REASON_REQUIRED, 'CANCEL_REASON_REQUIRED'),
  /** The spec's status buttons never change an order that holds no stock (STOCKLESS_STATUSES). */
  orderStatusKept: (status: string) =>
    refusal(
      409,
      'ORDER_STATUS_KEPT',
      status === 'cancelled'
        ? 'This order was cancelled and its stock returned; its status can no longer change.'
        : 'This order failed and took no stock; its status can no longer change.',
      { status },
    ),
  /** A role change made on a role the employee no longer has (beyond the spec: ?from=), with the row as it is. */
  roleChanged: (current: { type: string }) =>
    refusal(409, 'ROLE_CHANGED', `This employee's role changed to ${current.type} meanwhile: look at it again before changing it.`, {
      current,
    }),
  /** A status change made on a status the order has left (beyond the spec: ?from=), with the one it has. */
  orderStatusChanged: (status: string) =>
    refusal(409, 'ORDER_STATUS_CHANGED', `This order's status changed to ${status} meanwhile: look at it again before changing it.`, {
      status,
    }),
};
