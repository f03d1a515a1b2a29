// The back-office's writes and reads of authors, books and book copies.
import type { Prisma } from '../../generated/prisma/client.ts';
import { escapeLike } from '../../lib/text.ts';
import type { Db } from '../../plugins/prisma.ts';
import { auditedTransaction } from '../security/audit.ts';

const authorSelect = { id: true, fullName: true } satisfies Prisma.AuthorSelect;
export const bookSelect = {
  id: true,
  name: true,
  pagesNumber: true,
  authorId: true,
  typeId: true,
  publishedAt: true,
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

export function catalogAdminRepository(db: Db) {
  return {
    transaction: <T>(work: (tx: Prisma.TransactionClient) => Promise<T>) => auditedTransaction(db, work),

    async authorPage(skip: number, take: number) {
      const [total, authors] = await db.$transaction([
        db.author.count(),
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
    authorByExactName: (tx: Prisma.TransactionClient, fullName: string) =>
      tx.author.findUnique({ where: { fullName }, select: authorSelect }),
    createAuthor: (tx: Prisma.TransactionClient | Db, fullName: string) => tx.author.create({ data: { fullName }, select: authorSelect }),
    renameAuthor: (tx: Prisma.TransactionClient, id: number, fullName: string) =>
      tx.author.update({ where: { id }, data: { fullName }, select: authorSelect }),
    booksOfAuthor: (tx: Prisma.TransactionClient, authorId: number) =>
      tx.book.findMany({ where: { authorId }, select: { id: true, name: true } }),
    countBooksOfAuthor: (id: number) => db.book.count({ where: { authorId: id } }),
    deleteAuthor: async (id: number) => (await db.author.deleteMany({ where: { id } })).count === 1,

    async bookPage(skip: number, take: number) {
      const [total, books] = await db.$transaction([
        db.book.count(),
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
    createBook: (tx: Prisma.TransactionClient, data: Prisma.BookUncheckedCreateInput) => tx.book.create({ data, select: bookSelect }),
    updateBook: (tx: Prisma.TransactionClient, id: number, data: Prisma.BookUncheckedUpdateInput) =>
      tx.book.update({ where: { id }, data, select: bookSelect }),
    setSearchText: (tx: Prisma.TransactionClient, id: number, searchText: string) =>
      tx.book.update({ where: { id }, data: { searchText }, select: { id: true } }),
    typeById: (id: number) => db.bookType.findUnique({ where: { id }, select: { id: true } }),
    typeByName: (name: string) => db.bookType.findUnique({ where: { name }, select: { id: true } }),
    firstType: () => db.bookType.findFirst({ orderBy: { id: 'asc' }, select: { id: true } }),
    countOrderedCopiesOfBook: (bookId: number) => db.orderItem.count({ where: { bookCopy: { bookId } } }),
    /** A book with no sales can go, together with its copies (and any cart lines holding them). */
    deleteBookWithCopies: (bookId: number) =>
      auditedTransaction(db, async (tx) => {
        await tx.bookCopy.deleteMany({ where: { bookId } });
        return (await tx.book.deleteMany({ where: { id: bookId } })).count === 1;
      }),

    async copyPage(skip: number, take: number) {
      const [total, copies] = await db.$transaction([
        db.bookCopy.count(),
        db.bookCopy.findMany({ select: copySelect, orderBy: { id: 'asc' }, skip, take }),
      ]);
      return { total, copies };
    },
    copyById: (id: number) => db.bookCopy.findUnique({ where: { id }, select: copySelect }),
    bookExists: async (id: number) => (await db.book.count({ where: { id } })) > 0,
    createCopy: (data: Prisma.BookCopyUncheckedCreateInput) => db.bookCopy.create({ data, select: copySelect }),
    /** The copy, locked until the transaction ends: a sale waits for the save, and the save sees the stock it changes. */
    async lockCopy(tx: Prisma.TransactionClient, id: number) {
      const [locked] = await tx.$queryRaw<{ id: number }[]>`SELECT id FROM book_copies WHERE id = ${id} FOR UPDATE`;
      return locked ? tx.bookCopy.findUnique({ where: { id }, select: copySelect }) : null;
    },
    updateCopy: (tx: Prisma.TransactionClient, id: number, data: Prisma.BookCopyUncheckedUpdateInput) =>
      tx.bookCopy.update({ where: { id }, data, select: copySelect }),
    /**
     * When the copy had `quantity` as its stock: 'sinceLastSet' when it had it at some point since
     * someone at the shop last set its stock (an edit, an import, a restock, its creation), so only
     * sales and cancellations moved it since; 'beforeLastSet' when it had it (within a day) before a
     * change made by someone else than the employee saving now (a restock, an import, a correction
     * by hand, another employee's edit); null otherwise. The saving employee is the one the audit
     * names for this transaction.
     */
    async whenStockWas(tx: Prisma.TransactionClient, copyId: number, quantity: number) {
      const [row] = await tx.$queryRaw<{ seen: 'sinceLastSet' | 'beforeLastSet' | null }[]>`
        WITH last_set AS (
          SELECT coalesce(max(id), 0) AS id FROM stock_movements WHERE copy_id = ${copyId} AND reason NOT IN ('sale', 'cancellation')
        )
        SELECT CASE
          WHEN EXISTS (SELECT 1 FROM stock_movements m, last_set WHERE m.copy_id = ${copyId} AND m.stock_after = ${quantity} AND m.id >= last_set.id)
            THEN 'sinceLastSet'
          WHEN EXISTS (
            SELECT 1 FROM stock_movements m
            WHERE m.copy_id = ${copyId} AND m.stock_after = ${quantity} AND m.at > localtimestamp - interval '1 day'
              AND EXISTS (
                SELECT 1 FROM stock_movements later
                WHERE later.copy_id = ${copyId} AND later.id > m.id AND later.reason NOT IN ('sale', 'cancellation')
                  AND (later.reason <> 'staff_edit' OR later.actor IS DISTINCT FROM nullif(current_setting('bookshop.audit_actor', true), ''))))
            THEN 'beforeLastSet'
        END AS seen`;
      return row?.seen ?? null;
    },
    /** Units sold (less cancelled) since the copy had this version. */
    async soldSinceVersion(copyId: number, version: number) {
      const [row] = await db.$queryRaw<{ sold: number }[]>`
        SELECT coalesce(-sum(change), 0)::int AS sold FROM stock_movements
        WHERE copy_id = ${copyId} AND version > ${version} AND reason IN ('sale', 'cancellation')`;
      return row?.sold ?? 0;
    },
    /** A copy's stock movements, newest first. */
    async stockMovements(copyId: number, skip: number, take: number) {
      const [total, movements] = await db.$transaction([
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
    deleteCopy: async (id: number) => (await db.bookCopy.deleteMany({ where: { id } })).count === 1,
  };
}
