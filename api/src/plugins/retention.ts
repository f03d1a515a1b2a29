// Append-only records are kept for RETENTION_DAYS (90 by default), then purged: security events
// (the audit log's back-office writes excepted), import jobs and their plans (a run whose instance
// died too), e-mails sent or given up on, and the back-in-stock notices a client has read (each
// return of a wished-for copy is one more, for as long as the client keeps wishing). The audit log keeps
// its back-office writes for AUDIT_RETENTION_DAYS (two years by default: each order's status change
// and each copy an import writes is one, and they hold people's addresses), but the rows about a
// person (an employee, a contact message's sender) deleted longer ago than RETENTION_DAYS lose their
// values sooner, keeping only what was done and which fields changed: erasure, as privacy law asks.
//
// The same job folds the catalog's counts (catalog_totals: a row per statement that added or removed
// books, copies or authors) into one row.
//
// Every instance runs the job hourly; a transaction-level advisory lock lets one at a time do each
// of its transactions, and each names itself (bookshop.retention) to the append-only trigger, which
// refuses the same statements from anyone else.
import fp from 'fastify-plugin';
import type { Prisma } from '../generated/prisma/client.ts';
import type { Db } from './prisma.ts';

const RETENTION_LOCK = 16_017;
const RUN_EVERY_MS = 60 * 60_000;
/** The first run waits so a starting instance serves first. */
const FIRST_RUN_AFTER_MS = 60_000;
/** Rows one statement removes, so a big backlog is many short statements, not one long one. */
const BATCH = 5_000;
/** A checked import that was never run is worth nothing after a day (its check expires in 30 minutes). */
const UNRUN_IMPORTS_KEPT = '1 day';
/** The audited entities whose rows are about a person. */
export const PERSONAL_ENTITIES = ['Employee', 'ContactMessage'];

export interface RetentionReport {
  ran: boolean;
  securityEvents: number;
  /** The audit log's back-office writes older than AUDIT_RETENTION_DAYS. */
  auditWrites: number;
  importJobs: number;
  mails: number;
  /** Notices read longer ago than the retention. */
  notices: number;
  /** Contact messages received longer ago than the retention, answered or not. */
  contactMessages: number;
  erased: number;
  /** Rows of catalog_totals folded into one. */
  totalsFolded: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    retention: {
      /** Runs the job now (also hourly); ran is false when another instance held the lock. */
      run(): Promise<RetentionReport>;
    };
  }
}

/**
 * catalog_totals' rows folded into one, in one statement: a change committed meanwhile is either
 * deleted and in the sum, or left beside it, so it needs no lock, and two instances folding at once
 * only fold less. The INSERT runs though nothing reads it: PostgreSQL runs every data-modifying WITH.
 */
async function foldCatalogTotals(db: Db) {
  const [{ folded }] = await db.$queryRaw<[{ folded: number }]>`
    WITH folded AS (DELETE FROM catalog_totals WHERE (SELECT count(*) FROM catalog_totals) > 1 RETURNING books, book_copies, authors),
    summed AS (
      INSERT INTO catalog_totals (books, book_copies, authors)
      SELECT sum(books), sum(book_copies), sum(authors) FROM folded HAVING count(*) > 0)
    SELECT count(*)::int AS folded FROM folded`;
  return folded;
}

/**
 * One transaction of the job's, under its lock (false: another instance holds it) and named to the
 * append-only trigger.
 */
function underTheLock<T>(db: Db, work: (tx: Prisma.TransactionClient) => Promise<T>) {
  return db.$transaction(
    async (tx) => {
      const [{ locked }] = await tx.$queryRaw<[{ locked: boolean }]>`SELECT pg_try_advisory_xact_lock(${RETENTION_LOCK}) AS locked`;
      if (!locked) return false as const;
      await tx.$executeRaw`SELECT set_config('bookshop.retention', 'on', true)`;
      return work(tx);
    },
    { timeout: 60_000 },
  );
}

/**
 * Runs `batch` (a DELETE or UPDATE of at most BATCH rows) a transaction at a time under the job's lock
 * until one does fewer: each commits, so a run cut short (a statement's time limit, a restart) keeps
 * what it did, and no statement of a backlog, however large, outlasts the time limit every run (which
 * would roll the whole purge back each hour, for ever). Answers the rows done, and whether the lock held
 * throughout (not: another instance took it between two batches, and goes on).
 */
async function inBatches(db: Db, batch: (tx: Prisma.TransactionClient) => Promise<number>) {
  let done = 0;
  for (;;) {
    const rows = await underTheLock(db, batch);
    if (rows === false) return { done, locked: false };
    done += rows;
    if (rows < BATCH) return { done, locked: true };
  }
}

async function purgeOnce(db: Db, days: number, auditDays: number): Promise<Omit<RetentionReport, 'totalsFolded'>> {
  const before = `${days} days`;
  const report = { ran: false, securityEvents: 0, auditWrites: 0, importJobs: 0, mails: 0, notices: 0, contactMessages: 0, erased: 0 };
  // Oldest ids first, by the primary key's order: expired rows are the oldest, so a full batch's scan
  // stops at its last (a run's last, short batch reads on to the end, past the rows that are kept).
  const purges: [keyof Omit<typeof report, 'ran'>, (tx: Prisma.TransactionClient) => Promise<number>][] = [
    [
      'securityEvents',
      (tx) => tx.$executeRaw`
        DELETE FROM security_events WHERE id IN (
          SELECT id FROM security_events
          WHERE type <> 'backoffice_write' AND last_at < localtimestamp - ${before}::interval ORDER BY id LIMIT ${BATCH})`,
    ],
    [
      // By the (type, at) index, oldest first: the writes are a large share of the table.
      'auditWrites',
      (tx) => tx.$executeRaw`
        DELETE FROM security_events WHERE id IN (
          SELECT id FROM security_events
          WHERE type = 'backoffice_write' AND at < localtimestamp - ${`${auditDays} days`}::interval ORDER BY at LIMIT ${BATCH})`,
    ],
    [
      'importJobs',
      (tx) => tx.$executeRaw`
        DELETE FROM import_jobs WHERE id IN (
          SELECT id FROM import_jobs
          WHERE (status IN ('done', 'failed') AND coalesce(finished_at, updated_at) < localtimestamp - ${before}::interval)
             OR (status = 'checked' AND created_at < localtimestamp - ${UNRUN_IMPORTS_KEPT}::interval)
             -- A run moves updated_at at every step: one still 'running' that long after is one whose instance died.
             OR (status = 'running' AND updated_at < localtimestamp - ${before}::interval)
          ORDER BY id LIMIT ${BATCH})`,
    ],
    [
      'mails',
      (tx) => tx.$executeRaw`
        DELETE FROM mail_outbox WHERE id IN (
          SELECT id FROM mail_outbox WHERE coalesce(sent_at, dead_at) < localtimestamp - ${before}::interval ORDER BY id LIMIT ${BATCH})`,
    ],
    [
      // An unread notice stays (the bell still counts it): a client has one at most a copy.
      'notices',
      (tx) => tx.$executeRaw`
        DELETE FROM notices WHERE id IN (
          SELECT id FROM notices WHERE read_at < localtimestamp - ${before}::interval ORDER BY id LIMIT ${BATCH})`,
    ],
    [
      // Anyone may write one (a name and an e-mail), 500 an hour for the whole shop: kept until an
      // Admin deleted each, they grew by thousands a day for good.
      'contactMessages',
      (tx) => tx.$executeRaw`
        DELETE FROM contact_messages WHERE id IN (
          SELECT id FROM contact_messages WHERE created_at < localtimestamp - ${before}::interval ORDER BY id LIMIT ${BATCH})`,
    ],
    [
      // The entries of people deleted that long ago keep what changed, not who: each batch marks its rows erased.
      'erased',
      (tx) => tx.$executeRaw`
        UPDATE security_events e
        SET details = jsonb_build_object('operation', e.details -> 'operation', 'changed', e.details -> 'changed', 'erased', true)
        WHERE e.id IN (
          SELECT e.id FROM security_events e
          JOIN (
            SELECT DISTINCT entity, entity_id FROM security_events
            WHERE type = 'backoffice_write' AND entity = ANY(${PERSONAL_ENTITIES}::text[])
              AND details ->> 'operation' = 'delete' AND at < localtimestamp - ${before}::interval
          ) AS gone ON e.entity = gone.entity AND e.entity_id = gone.entity_id
          WHERE e.type = 'backoffice_write' AND NOT coalesce((e.details ->> 'erased')::boolean, false)
          ORDER BY e.id LIMIT ${BATCH})`,
    ],
  ];
  for (const [name, batch] of purges) {
    const { done, locked } = await inBatches(db, batch);
    report[name] = done;
    // Another instance has the lock: it goes on; what this run did is said.
    if (!locked) return report;
  }
  return { ...report, ran: true };
}

export default fp(
  async (app) => {
    // Apart, so that a purge that fails leaves the totals folded, and the reverse.
    const run = async (): Promise<RetentionReport> => {
      const [purged, folded] = await Promise.allSettled([
        purgeOnce(app.prisma, app.config.retentionDays, app.config.auditRetentionDays),
        foldCatalogTotals(app.prisma),
      ]);
      if (purged.status === 'rejected') throw purged.reason;
      if (folded.status === 'rejected') throw folded.reason;
      return { ...purged.value, totalsFolded: folded.value };
    };
    app.decorate('retention', { run });
    const runLogged = () =>
      run().then(
        (report) => report.ran && app.log.info({ retention: report }, 'retention job done'),
        (error: Error) => app.log.warn({ err: error }, 'retention job failed; the next run tries again'),
      );
    const first = setTimeout(runLogged, FIRST_RUN_AFTER_MS).unref();
    const hourly = setInterval(runLogged, RUN_EVERY_MS).unref();
    app.addHook('onClose', async () => {
      clearTimeout(first);
      clearInterval(hourly);
    });
  },
  { name: 'retention', dependencies: ['prisma', 'config'] },
);
