// The catalog's changes as the services that commit them announce them (Medusa's events in small):
// each write emits one event after its transaction commits, and the listeners (the catalog cache,
// the projections; plugins/catalog-events.ts) decide what it means for them. A service never calls
// a cache or a projection itself, and a request's URL never has to be guessed at.

/**
 * What an import wrote besides the prices and stock of copies (which every import may write), so
 * that the projections reading none of it are not rebuilt: at a million books the search
 * projections take minutes of a core, and an import of prices and stock leaves them as they were.
 */
export interface ImportedChanges {
  /** Books were created (and their authors, when new): new words and names to search and suggest. */
  booksAdded: boolean;
  /** A copy was created on sale, or an existing copy was put on or taken off sale: what is on sale changed. */
  availabilityChanged: boolean;
  /**
   * The copies whose stock alone the import moved, none into or out of stock, when that is all it
   * changed (no price, no sale, no book or copy added): the answers that show none of them stand.
   */
  stockMovedAlone?: number[];
}

/** The copies a checkout took stock from. */
export interface SoldCopies {
  copyIds: number[];
  /** One of them has none left: it leaves the in-stock filters and Recommended, which no answer's own copies say. */
  soldOut: boolean;
}

/** One committed change of what the storefront shows or orders. */
export type CatalogEvent =
  | { type: 'author.created' | 'author.renamed' | 'author.deleted'; authorId: number }
  | { type: 'book.created' | 'book.updated' | 'book.deleted'; bookId: number }
  | { type: 'copy.created' | 'copy.updated' | 'copy.deleted'; copyId: number }
  /**
   * A bulk import wrote its rows (books, authors and copies) in its one transaction. Without
   * `changed` it may have changed anything the catalog shows.
   */
  | { type: 'catalog.imported'; changed?: ImportedChanges }
  /** Stock alone: units added by hand. */
  | { type: 'copy.restocked'; copyId: number }
  /**
   * Stock alone: a checkout sold units, or a cancellation put them back. A checkout says which copies
   * it sold from and whether any of them sold out (`sold`); without it, any copy's stock may have moved.
   */
  | { type: 'order.placed'; orderId: number; sold?: SoldCopies }
  | { type: 'order.cancelled'; orderId: number }
  /** A review was written, changed, hidden or shown, and the book's ratings moved with it. */
  | { type: 'book.ratings-moved'; bookId: number };

export type CatalogEventType = CatalogEvent['type'];

/** What a service is handed to announce its committed changes with. */
export type EmitCatalogEvent = (event: CatalogEvent) => void;

/** The events that change a copy's stock (and units sold) alone, which the database's triggers leave to the API. */
export const STOCK_ONLY: ReadonlySet<CatalogEventType> = new Set(['copy.restocked', 'order.placed', 'order.cancelled']);
/** The events of sales: they move Bestselling and the in-stock filter, and come in bursts. */
export const SALES: ReadonlySet<CatalogEventType> = new Set(['order.placed', 'order.cancelled']);
