// The back-office's writes and reads of authors, books and book copies. A write of several rows is
// one audited transaction here; the service decides, and never holds a transaction itself.
import { Prisma } from '../../generated/prisma/client.ts';
import { parseCalendarDate } from '../../lib/dates.ts';
import { bookSearchText, escapeLike } from '../../lib/text.ts';
import type { Db } from '../../plugins/prisma.ts';
import { auditedTransaction } from '../security/audit.ts';
import { spendOrMark } from '../security/counters.ts';
import type { IsbnRecord } from './isbn-lookup.ts';

const authorSelect = { id: true, fullName: true, version: true } satisfies Prisma.AuthorSelect;
export const bookSelect = {
  id: true,
  name: true,
  pagesNumber: true,
  authorId: true,
  typeId: true,
  publishedAt: true,
  version: true,
  isbn13: true,
} satisfies Prisma.BookSelect;
const copySelect = {
  id: true,
  bookId: true,
  quantity: true,
  price: true,
  isAvailable: true,
  version: true,
} satisfies Prisma.BookCopySelect;

export type BookRow = Prisma.BookGetPayload<{ select: typeof bookSelect }>;
export type CopyRow = Prisma.BookCopyGetPayload<{ select: typeof copySelect }>;

const byNameLimit = 50;

/**
 * Creates a looked-up book, and its author when new, in the transaction `tx`: Add Book's write, which
 * the bulk import shares inside its own transaction.
 */
export async function createFoundBook(tx: Prisma.TransactionClient, isbn13: string, found: IsbnRecord, typeId: number) {
  // Held FOR SHARE until the book is written, as a book's save holds its author: a rename of the
  // author waits, or has committed (and the name no longer matches, so the author is new).
  const [existing] = await tx.$queryRaw<{ id: number; fullName: string }[]>`
    SELECT id, full_name AS "fullName" FROM authors WHERE full_name = ${found.author} FOR SHARE`;
  const author = existing ?? (await tx.author.create({ data: { fullName: found.author }, select: authorSelect }));
  return tx.book.create({
    data: {
      isbn13,
      name: found.title,
      pagesNumber: found.pagesNumber,
      publishedAt: found.publishedYear ? parseCalendarDate(`${String(found.publishedYear).padStart(4, '0')}-01-01`) : null,
      description: found.description,
      imageUrl: found.imageUrl,
      searchText: bookSearchText(found.title, author.fullName),
      authorId: author.id,
      typeId,
    },
    select: bookSelect,
  });
}

/** A copy's stock history and its write, inside the transaction that holds the copy locked. */
export interface LockedCopy {
  whenStockWas(quantity: number): Promise<'sinceLastSet' | 'beforeLastSet' | null>;
  update(data: Prisma.BookCopyUncheckedUpdateInput): Promise<CopyRow>;
}

export function catalogAdminRepository(db: Db) {
  /**
   * How many books, copies and authors the catalog holds, summed from catalog_totals, which the
   * statements that add or remove any keep exact (decision 17): a count of a table reads every row,
   * 60 ms at a million books, on every page of the Books, Book Copies and Authors tables.
   */
  const catalogTotals = async () => {
    const { _sum } = await db.catalogTotal.aggregate({ _sum: { books: true, bookCopies: true, authors: true } });
    return { books: Number(_sum.books ?? 0n), copies: Number(_sum.bookCopies ?? 0n), authors: Number(_sum.authors ?? 0n) };
  };
  return {
    async authorPage(skip: number, take: number) {
      const [total, authors] = await Promise.all([
        catalogTotals().then((totals) => totals.authors),
        db.author.findMany({ select: authorSelect, orderBy: { id: 'asc' }, skip, take }),
      ]);
      return { total, authors };
    },
    authorById: (id: number) => db.author.findUnique({ where: { id }, select: authorSelect }),
    authorsByName: (name: string) =>
      db.author.findMany({
        where: { fullName: { contains: escapeLike(name), mode: 'insensitive' } },
        select: authorSelect,
        orderBy: { fullName: 'asc' },
        take: byNameLimit,
      }),
    createAuthor: (fullName: string) => db.author.create({ data: { fullName }, select: authorSelect }),
    /**
     * Renames an author and rewrites the search text of their books, in one transaction. Null when the
     * author is gone, or no longer has the version the rename read (when it names one).
     */
    renameAuthor: (id: number, fullName: string, readVersion?: number) =>
      auditedTransaction(db, async (tx) => {
        const [author] = await tx.author.updateManyAndReturn({
          where: { id, version: readVersion },
          data: { fullName },
          select: authorSelect,
        });
        if (!author) return null;
        // Locked as read: a book renamed meanwhile is read once its rename commits, so its search text
        // is never written from the title it had before (a book's save holds its author FOR SHARE).
        // NO KEY: a copy being added to a book (its key checked, as an import does) does not wait.
        const books = await tx.$queryRaw<{ id: number; name: string }[]>`
          SELECT id, name FROM books WHERE author_id = ${id} FOR NO KEY UPDATE`;
        // One statement for all their books, not one each: a prolific author has thousands.
        await tx.$executeRaw`
          UPDATE books SET search_text = renamed.search_text
          FROM unnest(${books.map((book) => book.id)}::int[], ${books.map((book) => bookSearchText(book.name, fullName))}::text[])
            AS renamed(id, search_text)
          WHERE books.id = renamed.id`;
        return author;
      }),
    countBooksOfAuthor: (id: number) => db.book.count({ where: { authorId: id } }),
    /** Only the version read, when one is given: false when the author is gone or has been renamed since. */
    deleteAuthor: async (id: number, version?: number) =>
      (await db.author.deleteMany({ where: { id, ...(version !== undefined && { version }) } })).count === 1,

    async bookPage(skip: number, take: number) {
      const [{ books: total }, books] = await Promise.all([
        catalogTotals(),
        db.book.findMany({ select: bookSelect, orderBy: { id: 'asc' }, skip, take }),
      ]);
      return { total, books };
    },
    bookById: (id: number) => db.book.findUnique({ where: { id }, select: bookSelect }),
    booksByName: (name: string) =>
      db.book.findMany({
        where: { name: { contains: escapeLike(name), mode: 'insensitive' } },
        select: bookSelect,
        orderBy: { name: 'asc' },
        take: byNameLimit,
      }),
    bookExistsWithIsbn: async (isbn13: string) => (await db.book.count({ where: { isbn13 } })) > 0,
    /** Add Book's write (see createFoundBook) in a transaction of its own. */
    addFoundBook: (isbn13: string, found: IsbnRecord, typeId: number) =>
      auditedTransaction(db, (tx) => createFoundBook(tx, isbn13, found, typeId)),
    /**
     * Saves a book's fields with its search text made from its title and its author's name as they
     * are now: the author is held FOR SHARE until the save commits, so a rename of the author waits
     * for it, or has committed and is read (never an old name written after a rename). Null when the
     * book is gone or no longer has `readVersion`; 'no author' when its author was deleted meanwhile.
     */
    updateBook: (
      id: number,
      data: Omit<Prisma.BookUncheckedUpdateManyInput, 'name' | 'authorId' | 'searchText'> & { name: string; authorId: number },
      readVersion: number,
    ) =>
      auditedTransaction(db, async (tx) => {
        const [author] = await tx.$queryRaw<{ fullName: string }[]>`
          SELECT full_name AS "fullName" FROM authors WHERE id = ${data.authorId} FOR SHARE`;
        if (!author) return 'no author' as const;
        const [book] = await tx.book.updateManyAndReturn({
          where: { id, version: readVersion },
          data: { ...data, searchText: bookSearchText(data.name, author.fullName) },
          select: bookSelect,
        });
        return book ?? null;
      }),
    typeById: (id: number) => db.bookType.findUnique({ where: { id }, select: { id: true } }),
    typeByName: (name: string) => db.bookType.findUnique({ where: { name }, select: { id: true } }),
    firstType: () => db.bookType.findFirst({ orderBy: { id: 'asc' }, select: { id: true } }),
    /**
     * A book with no sales can go, together with its copies (and any cart lines holding them); only
     * the version read, when one is given. The book is locked first: a save of the book waits for the
     * delete rather than landing between the check and the delete, and a copy added meanwhile waits
     * too (its key check). A sale does not lock the book: one committed after the count still stops
     * the delete, by order_items' foreign key (a 409 like the count's).
     */
    deleteBookWithCopies: (bookId: number, version?: number) =>
      auditedTransaction(db, async (tx): Promise<'deleted' | 'gone' | 'changed' | 'ordered'> => {
        const [book] = await tx.$queryRaw<{ version: number }[]>`SELECT version FROM books WHERE id = ${bookId} FOR UPDATE`;
        if (!book) return 'gone';
        if (version !== undefined && version !== book.version) return 'changed';
        if (await tx.orderItem.count({ where: { bookCopy: { bookId } } })) return 'ordered';
        await tx.bookCopy.deleteMany({ where: { bookId } });
        await tx.book.delete({ where: { id: bookId } });
        return 'deleted';
      }),

    async copyPage(skip: number, take: number) {
      const [{ copies: total }, copies] = await Promise.all([
        catalogTotals(),
        db.bookCopy.findMany({ select: copySelect, orderBy: { id: 'asc' }, skip, take }),
      ]);
      return { total, copies };
    },
    copyById: (id: number) => db.bookCopy.findUnique({ where: { id }, select: copySelect }),
    bookExists: async (id: number) => (await db.book.count({ where: { id } })) > 0,
    createCopy: (data: Prisma.BookCopyUncheckedCreateInput) => db.bookCopy.create({ data, select: copySelect }),
    /**
     * Runs `work` in one audited transaction with the copy locked until it ends (null when the copy is
     * gone): a sale waits for the save, and the save sees the stock it changes.
     */
    withLockedCopy: <T>(id: number, work: (current: CopyRow | null, copy: LockedCopy) => Promise<T>) =>
      auditedTransaction(db, async (tx) => {
        const [locked] = await tx.$queryRaw<{ id: number }[]>`SELECT id FROM book_copies WHERE id = ${id} FOR UPDATE`;
        const current = locked ? await tx.bookCopy.findUnique({ where: { id }, select: copySelect }) : null;
        return work(current, {
          whenStockWas: (quantity) => whenStockWas(tx, id, quantity),
          update: (data) => tx.bookCopy.update({ where: { id }, data, select: copySelect }),
        });
      }),
    /** Units sold (less cancelled) since the copy had this version. */
    async soldSinceVersion(copyId: number, version: number) {
      // The copy's movements after its last one at or before `version` (a version only rises): read
      // from the newest back, so the cost is the movements since, not the copy's whole history.
      const [row] = await db.$queryRaw<{ sold: number }[]>`
        SELECT coalesce(-sum(change), 0)::int AS sold FROM stock_movements
        WHERE copy_id = ${copyId} AND reason IN ('sale', 'cancellation') AND version > ${version}
          AND id > coalesce((SELECT id FROM stock_movements WHERE copy_id = ${copyId} AND version <= ${version}
                             ORDER BY id DESC LIMIT 1), 0)`;
      return row?.sold ?? 0;
    },
    /** A copy's stock movements, newest first. */
    async stockMovements(copyId: number, skip: number, take: number) {
      const [total, movements] = await Promise.all([
        db.stockMovement.count({ where: { copyId } }),
        db.stockMovement.findMany({
          where: { copyId },
          orderBy: { id: 'desc' },
          skip,
          take,
          select: { id: true, at: true, change: true, stockAfter: true, reason: true, actor: true, reference: true },
        }),
      ]);
      return { total, movements };
    },
    countOrdersOfCopy: (id: number) => db.orderItem.count({ where: { bookCopyId: id } }),
    /** Only the version read, when one is given: false when the copy is gone or has changed since. */
    deleteCopy: async (id: number, version?: number) =>
      (await db.bookCopy.deleteMany({ where: { id, ...(version !== undefined && { version }) } })).count === 1,
  };
}

/** How long a save refused as read before another's change may be sent again, and then stands as meant. */
const STALE_SAVE_CONFIRM_MS = 10 * 60 * 1000;

/**
 * When the copy had `quantity` as its stock: 'sinceLastSet' when it had it at some point since
 * someone at the shop last set its stock (an edit, an import, a restock, its creation), so only
 * sales and cancellations moved it since; 'beforeLastSet' when it had it before a change made
 * within a day by someone else than the employee saving now (a restock, an import, a correction
 * by hand, another employee's edit): reached within the day or held when the day began, and
 * changed after, or the stock that change started from, however long the copy had held it (a slow
 * seller's stock, or a copy made at 0, which writes no movement; not the 0 before the copy itself
 * was made); null otherwise. The
 * saving employee is the one the audit names for this transaction.
 *
 * 'beforeLastSet' is said once: the same employee sending the same stock for the copy again within
 * STALE_SAVE_CONFIRM_MS, after the refusal told them the stock now, means it (null), or a
 * screen with no version could never set that stock again all day.
 */
async function whenStockWas(tx: Prisma.TransactionClient, copyId: number, quantity: number) {
  const seen = await stockWasSeen(tx, copyId, quantity);
  if (seen !== 'beforeLastSet') return seen;
  // The refusal is remembered in the shared counters (purged with them once its window is over).
  const key = Prisma.sql`${`stale-copy-save:${copyId}:${quantity}:`}::text || coalesce(current_setting('bookshop.audit_actor', true), '')`;
  return (await spendOrMark(tx, key, STALE_SAVE_CONFIRM_MS)) ? null : seen;
}

async function stockWasSeen(tx: Prisma.TransactionClient, copyId: number, quantity: number) {
  const [row] = await tx.$queryRaw<{ seen: 'sinceLastSet' | 'beforeLastSet' | null }[]>`
    WITH last_set AS (
      SELECT coalesce(max(id), 0) AS id FROM stock_movements WHERE copy_id = ${copyId} AND reason NOT IN ('sale', 'cancellation')
    ), day_start AS (
      -- The last movement older than a day: the stock the copy held when the day began.
      SELECT id, stock_after FROM stock_movements WHERE copy_id = ${copyId} AND at <= localtimestamp - interval '1 day'
      ORDER BY id DESC LIMIT 1
    ), days_changes AS (
      -- The day's movements are the newest: read back from the day's start, not the whole history.
      SELECT m.* FROM stock_movements m
      WHERE m.copy_id = ${copyId} AND m.at > localtimestamp - interval '1 day' AND m.id > coalesce((SELECT id FROM day_start), 0)
    ), others_sets AS (
      SELECT * FROM days_changes
      WHERE reason NOT IN ('sale', 'cancellation')
        AND (reason <> 'staff_edit' OR actor IS DISTINCT FROM nullif(current_setting('bookshop.audit_actor', true), ''))
    )
    SELECT CASE
      WHEN EXISTS (SELECT 1 FROM stock_movements m, last_set WHERE m.copy_id = ${copyId} AND m.stock_after = ${quantity} AND m.id >= last_set.id)
        THEN 'sinceLastSet'
      -- Not a row of the copy's creation (version 1) or the ledger's opening: no screen showed a stock before those.
      WHEN EXISTS (SELECT 1 FROM others_sets later
                   WHERE later.stock_after - later.change = ${quantity} AND later.version > 1 AND later.reason <> 'opening')
        OR EXISTS (SELECT 1 FROM days_changes m, others_sets later WHERE m.stock_after = ${quantity} AND later.id > m.id)
        OR EXISTS (SELECT 1 FROM day_start s, others_sets later WHERE s.stock_after = ${quantity} AND later.id > s.id)
        THEN 'beforeLastSet'
    END AS seen`;
  return row?.seen ?? null;
}

export type CatalogAdminRepository = ReturnType<typeof catalogAdminRepository>;
