// Authors, books and book copies as the back-office manages them. Every write that touches more
// than one row is one transaction (in the repository); refusals are 4xx with a message the screen
// can show; each committed change is announced as a catalog event.
import { parseCalendarDate } from '../../lib/dates.ts';
import { toIsbn13 } from '../../lib/isbn.ts';
import { toMoney } from '../../lib/money.ts';
import { refuse } from '../../lib/refusals.ts';
import { type BookUpdate, type CopyInput, NAME_MAX_CHARACTERS } from '../../schemas/backoffice-catalog.ts';
import type { EmitCatalogEvent } from '../catalog/catalog-events.ts';
import type { BookRow, CatalogAdminRepository, CopyRow } from './catalog-admin-repository.ts';
import type { IsbnLookup, IsbnRecord } from './isbn-lookup.ts';

const toBook = ({ isbn13: _isbn, ...book }: BookRow) => ({
  ...book,
  publishedAt: book.publishedAt ? book.publishedAt.toISOString().slice(0, 10) : null,
});
const toCopy = (copy: CopyRow) => ({ ...copy, price: toMoney(copy.price) });
const pages = (total: number, size: number) => Math.ceil(total / size);
/**
 * How often a save without a version is made again on the book as it now is, before it is refused.
 * Each round of saves racing on one book lands at least one of them, so N at once all land within N
 * tries: three refused some of five at once (order-cancel.test.ts's race of category changes).
 */
const UNVERSIONED_SAVE_ATTEMPTS = 10;
/** The columns a copy write may set, by name: never units sold, the id or a relation. */
const copyData = ({ bookId, quantity, price, isAvailable }: CopyInput) => ({ bookId, quantity, price: price.toFixed(2), isAvailable });

export function catalogAdminService(repo: CatalogAdminRepository, lookupIsbn: IsbnLookup, emit: EmitCatalogEvent) {
  const requireName = (raw: string | undefined, what: string) => {
    const name = raw?.trim() ?? '';
    if (!name) throw refuse.emptyName(what);
    if ([...name].length > NAME_MAX_CHARACTERS) throw refuse.nameTooLong(what, NAME_MAX_CHARACTERS);
    return name;
  };

  /** The category a looked-up book goes in: its own when the shop has it, else the first. */
  const categoryOf = async (found: IsbnRecord) => {
    const type = (found.category && (await repo.typeByName(found.category))) || (await repo.firstType());
    if (!type) throw refuse.noCategories();
    return type.id;
  };

  const validateCopy = (input: CopyInput) => {
    // The schema holds quantity to a whole number of 0 or more and price to 0 or more; whole cents it
    // cannot check, allowing for binary floating point (19.99 * 100 is 1998.9999999999998).
    const cents = input.price * 100;
    if (Math.abs(cents - Math.round(cents)) > 1e-6) {
      throw refuse.copyPrice();
    }
  };

  return {
    async authorPage(pageNumber: number, pageSize: number) {
      const { total, authors } = await repo.authorPage((pageNumber - 1) * pageSize, pageSize);
      return { authors, totalPages: pages(total, pageSize) };
    },
    async authorById(id: number) {
      const author = await repo.authorById(id);
      if (!author) throw refuse.noAuthor();
      return author;
    },
    authorsByName: (name: string) => repo.authorsByName(name.trim()),
    async addAuthor(rawName: string) {
      const author = await repo.createAuthor(requireName(rawName, 'author'));
      emit({ type: 'author.created', authorId: author.id });
      return author;
    },
    /**
     * Renaming also refreshes the search text of the author's books, in the same transaction. With the
     * version its writer read (If-Match), an author renamed since is refused with 412 and the name now.
     */
    async renameAuthor(id: number, rawName: string, readVersion?: number) {
      const fullName = requireName(rawName, 'author');
      const current = await repo.authorById(id);
      if (!current) throw refuse.noAuthor();
      if (readVersion !== undefined && readVersion !== current.version) throw refuse.authorChanged(current);
      const author = await repo.renameAuthor(id, fullName, readVersion);
      if (!author) {
        const now = await repo.authorById(id);
        throw now ? refuse.authorChanged(now) : refuse.noAuthor();
      }
      emit({ type: 'author.renamed', authorId: id });
      return author;
    },
    /**
     * With the version its writer read (If-Match), an author renamed since is refused with 412 and the
     * name now. An author gone before the delete got to them is a 404, whoever deleted them.
     */
    async deleteAuthor(id: number, readVersion?: number) {
      if (!(await repo.authorById(id))) throw refuse.noAuthor();
      const books = await repo.countBooksOfAuthor(id);
      if (books) throw refuse.authorHasBooks(books);
      if (await repo.deleteAuthor(id, readVersion)) return emit({ type: 'author.deleted', authorId: id });
      const current = readVersion === undefined ? null : await repo.authorById(id);
      throw current ? refuse.authorChangedBeforeDelete(current) : refuse.noAuthor();
    },

    async bookPage(pageNumber: number, pageSize: number) {
      const { total, books } = await repo.bookPage((pageNumber - 1) * pageSize, pageSize);
      return { books: books.map(toBook), totalPages: pages(total, pageSize) };
    },
    async bookById(id: number) {
      const book = await repo.bookById(id);
      if (!book) throw refuse.noBook();
      return toBook(book);
    },
    booksByName: async (name: string) => (await repo.booksByName(name.trim())).map(toBook),

    /** Adds a book from its ISBN: looks it up, creates the author when new, refuses duplicates. */
    async addBookByIsbn(rawIsbn: string) {
      if (!rawIsbn.trim()) throw refuse.allFieldsRequired();
      const isbn13 = toIsbn13(rawIsbn);
      if (!isbn13) throw refuse.invalidIsbn();
      if (await repo.bookExistsWithIsbn(isbn13)) throw refuse.isbnExists();
      const found = await lookupIsbn(isbn13);
      if (!found) throw refuse.isbnNotFound();
      const book = await repo.addFoundBook(isbn13, found, await categoryOf(found));
      emit({ type: 'book.created', bookId: book.id });
      return toBook(book);
    },
    categoryOf,

    /**
     * Saves a book's fields. With the version its writer read (If-Match), a book changed since is
     * refused with 412 and the book now, so one employee's save never silently undoes another's.
     * Without one, the fields sent are written and the others kept as the book has them when the save
     * lands: the title and author not sent are filled from the book as read here, so the save is
     * guarded by that read's version and, when another save came between, made again on the book now.
     */
    async updateBook(input: BookUpdate, readVersion?: number) {
      for (let attempt = 1; ; attempt++) {
        const current = await repo.bookById(input.id);
        if (!current) throw refuse.noBook();
        if (readVersion !== undefined && readVersion !== current.version) throw refuse.bookChanged(toBook(current));
        const name = input.name === undefined ? current.name : requireName(input.name, 'book');
        const authorId = input.authorId ?? current.authorId;
        if (!(await repo.authorById(authorId))) throw refuse.noAuthorWithId(authorId);
        if (input.typeId !== undefined && !(await repo.typeById(input.typeId))) throw refuse.noCategoryWithId(input.typeId);
        let publishedAt: Date | null | undefined;
        if (input.publishedAt === null || input.publishedAt === '') publishedAt = null;
        else if (input.publishedAt !== undefined) {
          publishedAt = parseCalendarDate(input.publishedAt);
          if (!publishedAt) throw refuse.publishedDate();
        }
        const book = await repo.updateBook(
          input.id,
          { name, pagesNumber: input.pagesNumber, authorId, typeId: input.typeId, publishedAt },
          readVersion ?? current.version,
        );
        if (book === 'no author') throw refuse.noAuthorWithId(authorId);
        if (book) {
          emit({ type: 'book.updated', bookId: book.id });
          return toBook(book);
        }
        const now = await repo.bookById(input.id);
        if (!now) throw refuse.noBook();
        // A book saved that often while this save runs is refused as a stale one would be.
        if (readVersion !== undefined || attempt === UNVERSIONED_SAVE_ATTEMPTS) throw refuse.bookChanged(toBook(now));
      }
    },

    /**
     * With the version its writer read (If-Match), a book changed since is refused with 412 and the
     * book now. A book gone before the delete got to it is a 404, whoever deleted it.
     */
    async deleteBook(id: number, readVersion?: number) {
      const outcome = await repo.deleteBookWithCopies(id, readVersion);
      if (outcome === 'deleted') return emit({ type: 'book.deleted', bookId: id });
      if (outcome === 'ordered') throw refuse.bookOrdered();
      const current = outcome === 'changed' ? await repo.bookById(id) : null;
      throw current ? refuse.bookChangedBeforeDelete(toBook(current)) : refuse.noBook();
    },

    async copyPage(pageNumber: number, pageSize: number) {
      const { total, copies } = await repo.copyPage((pageNumber - 1) * pageSize, pageSize);
      return { booksCopies: copies.map(toCopy), totalPages: pages(total, pageSize) };
    },
    async copyById(id: number) {
      const copy = await repo.copyById(id);
      if (!copy) throw refuse.noCopy();
      return toCopy(copy);
    },
    async addCopy(input: CopyInput) {
      validateCopy(input);
      if (!(await repo.bookExists(input.bookId))) throw refuse.noBookWithId(input.bookId);
      const copy = await repo.createCopy(copyData(input));
      emit({ type: 'copy.created', copyId: copy.id });
      return toCopy(copy);
    },
    /**
     * Saves a copy (decision record 12). With the version its writer read (If-Match), a copy that
     * changed since is refused with 412 and its current values. Without one (the spec's own client),
     * a quantity the copy has had since staff last set it is what its writer saw, so the stock is left
     * as sales made it; a quantity it had only before a later restock, import or another employee's
     * edit (within a day) was read before that change, so the save is refused with 412 as a stale one
     * is; any other quantity is a new count, written as sent (the same employee setting 5, 0, then 5
     * again means it). A save that leaves the stock as it is never writes
     * it, so no sale made meanwhile is undone.
     */
    async updateCopy(id: number, input: CopyInput, readVersion?: number) {
      validateCopy(input);
      if (!(await repo.copyById(id))) throw refuse.noCopy();
      if (!(await repo.bookExists(input.bookId))) throw refuse.noBookWithId(input.bookId);
      const saved = await repo.withLockedCopy(id, async (current, copy) => {
        if (!current) throw refuse.noCopy();
        if (readVersion !== undefined && readVersion !== current.version) return { stale: toCopy(current) };
        const { quantity, ...rest } = copyData(input);
        const seen = quantity === current.quantity ? 'sinceLastSet' : readVersion === undefined ? await copy.whenStockWas(quantity) : null;
        if (seen === 'beforeLastSet') return { stale: toCopy(current) };
        return { copy: toCopy(await copy.update(seen === 'sinceLastSet' ? rest : { ...rest, quantity })) };
      });
      if (saved.copy) {
        emit({ type: 'copy.updated', copyId: id });
        return saved.copy;
      }
      // Without a version, what moved since the writer read is not known: the message says so.
      throw refuse.copyChanged(saved.stale, readVersion === undefined ? 0 : await repo.soldSinceVersion(id, readVersion));
    },
    async stockMovements(copyId: number, pageNumber: number, pageSize: number) {
      if (!(await repo.copyById(copyId))) throw refuse.noCopy();
      const { total, movements } = await repo.stockMovements(copyId, (pageNumber - 1) * pageSize, pageSize);
      return {
        movements: movements.map(({ id, at, ...movement }) => ({ id: Number(id), at: at.toISOString(), ...movement })),
        totalPages: pages(total, pageSize),
      };
    },
    /**
     * Deletes a copy never ordered, its stock and movements with it. With the version the employee read
     * (If-Match), a copy changed since (a restock: stock they did not see) is refused with 412.
     */
    async deleteCopy(id: number, readVersion?: number) {
      if (!(await repo.copyById(id))) throw refuse.noCopy();
      if (await repo.countOrdersOfCopy(id)) throw refuse.copyOrdered();
      if (await repo.deleteCopy(id, readVersion)) return emit({ type: 'copy.deleted', copyId: id });
      const current = readVersion === undefined ? null : await repo.copyById(id);
      throw current ? refuse.copyChangedBeforeDelete(toCopy(current)) : refuse.noCopy();
    },
  };
}

export type CatalogAdminService = ReturnType<typeof catalogAdminService>;
