// Beyond the spec, for staff: the dashboard's charts, the audit log, the low-stock report and the
// bulk import of copies.

import { LOW_STOCK_THRESHOLD_MAX, STOCK_MAX } from '@bookshop/rules';
import { type Static, Type } from 'typebox';
import { Body, PageSize, PositiveInt } from './common.ts';

/** The days, categories and statuses the charts cover: the last 30 days, today (UTC) included. */
export const CHART_DAYS = 30;

export const SalesDay = Type.Object(
  {
    day: Type.String({ format: 'date', description: 'A calendar day (UTC)' }),
    orders: Type.Integer({ description: 'Orders placed that day, cancelled and failed ones left out' }),
    revenue: Type.Number({ description: 'Their total price' }),
  },
  { $id: 'SalesDay' },
);
export const CategoryUnits = Type.Object(
  { category: Type.String(), units: Type.Integer({ description: 'Units sold in the last 30 days, cancelled and failed orders left out' }) },
  { $id: 'CategoryUnits' },
);
export const StatusCount = Type.Object(
  { status: Type.String({ description: "The status, capitalised ('pending' is 'Pending')" }), orders: Type.Integer() },
  { $id: 'StatusCount' },
);

/** The tables that carry the audit trigger, by the name the log gives them (their Prisma models'). */
export const AUDITED_ENTITIES = [
  'Author',
  'Book',
  'BookCopy',
  'Order',
  'Employee',
  'ContactMessage',
  'BookReview',
  'ShopSettings',
] as const;
/** Every type of security event; `backoffice_write` entries are written by the audit trigger. */
export const AUDIT_EVENT_TYPES = [
  'backoffice_write',
  'login_failed',
  'login_locked',
  'password_check_failed',
  'refresh_token_reuse',
  'authorization_refused',
  'csrf_refused',
  'rate_limited',
  'password_reset_requested',
  'password_reset',
  'second_factor_enrolled',
  'second_factor_removed',
  'second_factor_failed',
  'step_up_session_ended',
  'second_factor_reset',
  'recovery_code_used',
  'recovery_codes_renewed',
  'employee_signed_in',
  'client_signed_in',
  'client_signed_up',
  'password_changed',
  'sessions_ended',
  'dead_letter_retried',
] as const;

export const AuditQuery = Type.Object(
  {
    entity: Type.Optional(Type.Union(AUDITED_ENTITIES.map((e) => Type.Literal(e)))),
    type: Type.Optional(Type.Union(AUDIT_EVENT_TYPES.map((e) => Type.Literal(e)))),
    actor: Type.Optional(
      Type.String({ minLength: 1, maxLength: 320, description: 'Who: `employee:<id>`, or the e-mail a failed sign-in named' }),
    ),
    from: Type.Optional(Type.String({ format: 'date', description: 'From this day (UTC), inclusive' })),
    to: Type.Optional(Type.String({ format: 'date', description: 'To this day (UTC), inclusive' })),
    before: Type.Optional(Type.Integer({ minimum: 1, description: 'Entries older than this id: the next page' })),
    pageSize: Type.Optional(PageSize),
  },
  { additionalProperties: false },
);

export const AuditEntry = Type.Object(
  {
    id: Type.Integer(),
    at: Type.String({ format: 'date-time' }),
    type: Type.String(),
    actor: Type.Union([Type.String(), Type.Null()], { description: 'Null when nobody was signed in or named' }),
    actorName: Type.Union([Type.String(), Type.Null()], { description: "The employee's name when the actor is one" }),
    address: Type.Union([Type.String(), Type.Null()]),
    entity: Type.Union([Type.String(), Type.Null()]),
    entityId: Type.Union([Type.String(), Type.Null()]),
    details: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()], {
      description: 'For a back-office write: operation, changed (column names), before and after (the row, secrets left out)',
    }),
    count: Type.Integer({
      minimum: 1,
      description: 'How many times this happened from this address in its 10-minute window (address `*`: from many addresses)',
    }),
    lastAt: Type.String({ format: 'date-time', description: 'When it last happened' }),
  },
  { $id: 'AuditEntry' },
);
export const AuditPage = Type.Object(
  {
    entries: Type.Array(Type.Ref('AuditEntry')),
    nextBefore: Type.Union([Type.Integer(), Type.Null()], { description: 'Pass as `before` for the next (older) page; null on the last' }),
  },
  { $id: 'AuditPage' },
);

export const LowStockCopy = Type.Object(
  {
    copyId: Type.Integer(),
    bookId: Type.Integer(),
    bookName: Type.String(),
    authorName: Type.String(),
    quantity: Type.Integer(),
    price: Type.Number(),
    isAvailable: Type.Boolean(),
    unitsSold30Days: Type.Integer({ description: 'Units sold in the last 30 days, cancelled and failed orders left out' }),
  },
  { $id: 'LowStockCopy' },
);
export const LowStockPage = Type.Object(
  {
    threshold: Type.Integer({ description: 'Copies with this many units or fewer are listed' }),
    copies: Type.Array(Type.Ref('LowStockCopy')),
    totalCopies: Type.Integer(),
    totalPages: Type.Integer(),
  },
  { $id: 'LowStockPage' },
);
export const LowStockQuery = Type.Object(
  { pageNumber: Type.Optional(PositiveInt), pageSize: Type.Optional(PageSize) },
  { additionalProperties: false },
);
export const ThresholdInput = Body({ threshold: Type.Integer({ minimum: 0, maximum: LOW_STOCK_THRESHOLD_MAX }) });
export const RestockInput = Body({ add: Type.Integer({ minimum: 1, maximum: STOCK_MAX, description: 'Units to add to the stock' }) });

/** The most rows one import file may hold. */
export const IMPORT_MAX_ROWS = 100000;
/** The invalid rows an import reports by line (their count is always whole). */
export const IMPORT_REPORTED_INVALID = 200;

const InvalidImportRowView = Type.Object({
  line: Type.Integer({ description: "The row's line in the file, the header being line 1" }),
  isbn: Type.String(),
  reason: Type.String(),
});
const MovedImportRowView = Type.Object({
  line: Type.Integer(),
  isbn: Type.String(),
  exportedStock: Type.Integer({ description: 'The stock the export saw' }),
  stockNow: Type.Integer({ description: 'The stock at the dry run' }),
  stockAfter: Type.Integer({ description: "The stock now plus the file's change (stock - exported_stock)" }),
});
const StoppedImportRowView = Type.Object({
  line: Type.Integer(),
  isbn: Type.String(),
  stockBefore: Type.Integer({ description: 'The stock when the run wrote the row' }),
  change: Type.Integer({ description: "The file's change (stock - exported_stock)" }),
  stockAfter: Type.Integer({ description: `The stock the run left: 0, or ${STOCK_MAX.toLocaleString('en-US')} at most` }),
});

export const ImportJobView = Type.Object(
  {
    id: Type.Integer(),
    status: Type.Union([Type.Literal('checked'), Type.Literal('running'), Type.Literal('done'), Type.Literal('failed')], {
      description: 'checked: the dry run is done and nothing is written; running; done; failed (nothing was written)',
    }),
    rows: Type.Integer({ description: 'Rows in the file' }),
    new: Type.Integer({ description: 'Rows whose ISBN is not in the shop: the book and its copy are created' }),
    changed: Type.Integer({ description: "Rows that change a book's copy (or give it its first copy)" }),
    unchanged: Type.Integer(),
    invalid: Type.Integer(),
    invalidRows: Type.Array(InvalidImportRowView, { description: `The first ${IMPORT_REPORTED_INVALID} invalid rows` }),
    moved: Type.Integer({
      description:
        "Rows whose copy's stock moved (a sale, say) since the file's exported_stock: the file's change is applied on top of the stock now",
    }),
    movedRows: Type.Array(MovedImportRowView, { description: `The first ${IMPORT_REPORTED_INVALID} moved rows` }),
    stopped: Type.Integer({
      description:
        'Rows whose change the stock could not take in full when the import ran (sales or restocks since the check left less than the file took away, or more than the most a copy holds): the stock stopped at 0 or at the most. Known once the job is done; 0 for jobs run before it was recorded',
    }),
    stoppedRows: Type.Array(StoppedImportRowView, { description: `The first ${IMPORT_REPORTED_INVALID} stopped rows` }),
    warnings: Type.Array(Type.String(), { description: 'What the person should know before running the import' }),
    skipInvalid: Type.Boolean(),
    total: Type.Integer({ description: 'Rows to write: new and changed' }),
    processed: Type.Integer({ description: 'Rows written so far' }),
    error: Type.Union([Type.String(), Type.Null()]),
    createdAt: Type.String({ format: 'date-time' }),
    finishedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  { $id: 'ImportJob' },
);
export type InvalidImportRow = Static<typeof InvalidImportRowView>;
export type MovedImportRow = Static<typeof MovedImportRowView>;
export type StoppedImportRow = Static<typeof StoppedImportRowView>;

/**
 * An import's counts and reported rows as its check stores them (import_jobs.summary), read back
 * through this schema, with the rows its run stopped at a limit added when it is done; jobs checked
 * before the stock ledger (decision record 12) have no moved rows or warnings.
 */
export const StoredImportSummary = Type.Object({
  rows: Type.Integer(),
  new: Type.Integer(),
  changed: Type.Integer(),
  unchanged: Type.Integer(),
  invalid: Type.Integer(),
  invalidRows: Type.Array(InvalidImportRowView),
  moved: Type.Optional(Type.Integer()),
  movedRows: Type.Optional(Type.Array(MovedImportRowView)),
  warnings: Type.Optional(Type.Array(Type.String())),
  stopped: Type.Optional(Type.Integer()),
  stoppedRows: Type.Optional(Type.Array(StoppedImportRowView)),
});
/** What the check stores: the run adds its stopped rows. */
export type ImportSummary = Required<Omit<Static<typeof StoredImportSummary>, 'stopped' | 'stoppedRows'>>;

/**
 * A row of an import's plan (import_jobs.plan): what the run writes, with a new book's looked-up
 * facts and category, so the run looks up nothing again. Ranges are the check's business: the run
 * lets the database refuse what the plan should not hold.
 */
export const ImportPlanRow = Type.Object({
  line: Type.Integer(),
  isbn13: Type.String(),
  price: Type.String(),
  stock: Type.Integer(),
  available: Type.Boolean(),
  /** The stock the export saw, when the file says: the row then changes the stock by stock - exportedStock. */
  exportedStock: Type.Optional(Type.Integer()),
  /** The price and availability the export saw, when the file says: the row then writes each only where the file changed it. */
  exportedPrice: Type.Optional(Type.String()),
  exportedAvailable: Type.Optional(Type.Boolean()),
  /** The copy the export read them from, when the file says: the row is refused where the book's first copy is another now. */
  copyId: Type.Optional(Type.Integer()),
  /**
   * The stock ledger's last entry when the file was exported, when the file says: a row that changes
   * the stock is refused where an import has moved the copy's stock since (the same file run twice
   * would otherwise add its change twice).
   */
  exportedLedger: Type.Optional(Type.Integer()),
  kind: Type.Union([Type.Literal('new'), Type.Literal('changed'), Type.Literal('unchanged')]),
  found: Type.Optional(
    Type.Object({
      title: Type.String(),
      author: Type.String(),
      category: Type.Union([Type.String(), Type.Null()]),
      publishedYear: Type.Union([Type.Integer(), Type.Null()]),
      pagesNumber: Type.Union([Type.Integer(), Type.Null()]),
      imageUrl: Type.Union([Type.String(), Type.Null()]),
      description: Type.Union([Type.String(), Type.Null()]),
      typeId: Type.Integer(),
    }),
  ),
});
export type ImportPlanRow = Static<typeof ImportPlanRow>;

export const RunImportInput = Body({
  skipInvalid: Type.Boolean({ description: 'Write the valid rows of a file that has invalid ones; otherwise such a file writes nothing' }),
});
