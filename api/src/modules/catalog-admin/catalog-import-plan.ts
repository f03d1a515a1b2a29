// The import's plan, worked out without the database: the file read and each row checked, then the
// checked rows compared with the shop's copies as the repository found them and with the ISBN
// lookups of the books the shop lacks. What is new, changed, unchanged, invalid or moved is decided
// here, and only here; the repository reads and writes, the runner writes the plan.
//
// Stock and exported_stock (decision record 12): with exported_stock, a row's stock is a change
// (stock - exported_stock) applied on top of the stock at the run, so sales made since the export
// stand. The plan lists the rows whose stock moved since the export, and refuses a row whose change
// those sales made impossible. Without the column, the stock is written as the file says, with a
// warning. Price and availability likewise with exported_price and exported_available: a row
// writes one only where the file changed it from what the export saw, so the staff's changes made
// since stand; a row where both the file and the shop changed it, differently, is refused.

import { STOCK_MAX } from '@bookshop/rules';
import { parse } from 'csv-parse/sync';
import { toIsbn13 } from '../../lib/isbn.ts';
import { toCents } from '../../lib/money.ts';
import { refuse } from '../../lib/refusals.ts';
import type { ImportPlanRow, ImportSummary, InvalidImportRow, MovedImportRow } from '../../schemas/staff.ts';
import { IMPORT_MAX_ROWS, IMPORT_REPORTED_INVALID } from '../../schemas/staff.ts';
import type { IsbnRecord } from './isbn-lookup.ts';

export const IMPORT_COLUMNS = ['isbn', 'price', 'stock', 'available'] as const;
const EXPORTED_STOCK = 'exported_stock';
const EXPORTED_PRICE = 'exported_price';
const EXPORTED_AVAILABLE = 'exported_available';
const COPY_ID = 'copy_id';
const EXPORTED_LEDGER = 'exported_ledger';
export const NO_EXPORTED_STOCK_WARNING =
  "The file has no exported_stock column, so each row's stock replaces the copy's stock as it is when the import runs: copies sold since the file was made come back. Export the catalog again and edit that file to keep them sold.";
export const NO_EXPORTED_LEDGER_WARNING =
  'The file has no exported_ledger column, so nothing tells a second import of it from the first: each would make its stock changes again. Export the catalog again and edit that file to make them once.';
/** The warning for a file without exported_price or exported_available (or both), naming what it lacks. */
export function noExportedCopyFieldsWarning(missing: { price: boolean; available: boolean }) {
  const columns = [missing.price && 'exported_price', missing.available && 'exported_available'].filter(Boolean);
  const fields = [missing.price && 'price', missing.available && 'availability'].filter(Boolean);
  const two = columns.length === 2;
  return `The file has no ${columns.join(' and ')} column${two ? 's' : ''}, so each row's ${fields.join(' and ')} replace${two ? '' : 's'} the shop's: changes made on the Book Copies screen since the file was made are undone. Export the catalog again and edit that file to keep them.`;
}
export const NO_EXPORTED_PRICE_WARNING = noExportedCopyFieldsWarning({ price: true, available: true });
/** ISBNs the shop lacks that one file may add: each is a lookup, at Open Library in production. */
export const IMPORT_MAX_NEW_BOOKS = 200;

const PRICE = /^\d{1,8}(\.\d{1,2})?$/;
const STOCK = /^\d{1,7}$/;
/** A copy's id: a positive int4. */
const COPY_ID_TEXT = /^[1-9]\d{0,9}$/;
const COPY_ID_MAX = 2_147_483_647;
const LEDGER_TEXT = /^\d{1,15}$/;
const AVAILABLE = new Map([
  ['true', true],
  ['yes', true],
  ['1', true],
  ['false', false],
  ['no', false],
  ['0', false],
]);
const STOCK_RANGE = `must be a whole number from 0 to ${STOCK_MAX.toLocaleString('en-US')}.`;

/** A row that passed its own checks, before it is compared with the shop. */
/**
 * A row fine on its own. `noCopyAtExport`: the file has the exported_stock column and this row's cell
 * is blank, which the export writes for a book that had no copy then.
 */
export type CheckedRow = Omit<ImportPlanRow, 'kind' | 'found'> & { noCopyAtExport?: true };

/** The file read: its rows that are fine on their own, and those that are not. */
export interface ImportFile {
  hasExportedStock: boolean;
  hasExportedLedger: boolean;
  hasExportedPrice: boolean;
  hasExportedAvailable: boolean;
  checked: CheckedRow[];
  invalid: InvalidImportRow[];
}

/** A book's first copy as the shop has it at the check, or null for a book without copies. */
export interface ShopCopy {
  id: number;
  price: string;
  quantity: number;
  isAvailable: boolean;
}

/** What the ISBN lookup said of a book the shop lacks. */
export type LookupOutcome = { found: IsbnRecord & { typeId: number } } | 'not found' | 'failed';

interface FileRow {
  line: number;
  isbn: string;
  price: string;
  stock: string;
  available: string;
  exportedStock: string;
  exportedPrice: string;
  exportedAvailable: string;
  copyId: string;
  exportedLedger: string;
}

/** The file's records with their line numbers; a 400 the screen shows when it is not usable CSV. */
function records(text: string) {
  const lines: number[] = [];
  try {
    const rows = parse(text, {
      bom: true,
      skip_empty_lines: true,
      trim: true,
      relax_column_count: true,
      max_record_size: 64 * 1024,
      // One record past the most a file may hold is enough to refuse it: a file of millions of tiny
      // lines is never held whole.
      to: IMPORT_MAX_ROWS + 2,
      on_record: (record, { lines: line }) => {
        lines.push(line);
        return record;
      },
    });
    return rows.map((record, index) => ({ record, line: lines[index] ?? 0 }));
  } catch (error) {
    throw refuse.form(`The file is not valid CSV: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function fileRows(text: string) {
  const [header, ...rows] = records(text);
  const columns = header?.record.map((name) => name.toLowerCase()) ?? [];
  const at = (
    name:
      | (typeof IMPORT_COLUMNS)[number]
      | typeof EXPORTED_STOCK
      | typeof EXPORTED_PRICE
      | typeof EXPORTED_AVAILABLE
      | typeof COPY_ID
      | typeof EXPORTED_LEDGER,
  ) => columns.indexOf(name);
  const [isbnAt, priceAt, stockAt, availableAt, exportedStockAt, exportedPriceAt, exportedAvailableAt, copyIdAt, exportedLedgerAt] = [
    at('isbn'),
    at('price'),
    at('stock'),
    at('available'),
    at(EXPORTED_STOCK),
    at(EXPORTED_PRICE),
    at(EXPORTED_AVAILABLE),
    at(COPY_ID),
    at(EXPORTED_LEDGER),
  ];
  const cell = (record: string[], index: number) => (index >= 0 ? (record[index] ?? '') : '');
  if ([isbnAt, priceAt, stockAt, availableAt].some((index) => index < 0)) {
    throw refuse.form(`The file's first line must name the columns ${IMPORT_COLUMNS.join(', ')}.`);
  }
  if (!rows.length) throw refuse.form('The file has no rows under its header.');
  if (rows.length > IMPORT_MAX_ROWS) throw refuse.form(`A file can hold at most ${IMPORT_MAX_ROWS.toLocaleString('en-US')} rows.`);
  return {
    hasExportedStock: exportedStockAt >= 0,
    hasExportedLedger: exportedLedgerAt >= 0,
    hasExportedPrice: exportedPriceAt >= 0,
    hasExportedAvailable: exportedAvailableAt >= 0,
    rows: rows.map(
      ({ record, line }): FileRow => ({
        line,
        isbn: cell(record, isbnAt),
        price: cell(record, priceAt),
        stock: cell(record, stockAt),
        available: cell(record, availableAt).toLowerCase(),
        exportedStock: cell(record, exportedStockAt),
        exportedPrice: cell(record, exportedPriceAt),
        exportedAvailable: cell(record, exportedAvailableAt).toLowerCase(),
        copyId: cell(record, copyIdAt),
        exportedLedger: cell(record, exportedLedgerAt),
      }),
    ),
  };
}

const isStock = (text: string) => STOCK.test(text) && Number(text) <= STOCK_MAX;

/** Why a row cannot be imported, whatever the shop holds, or null. */
function rowProblem(row: FileRow, isbn13: string | null, lineOfIsbn: Map<string, number>) {
  if (!isbn13) return 'This is not a valid ISBN.';
  const earlier = lineOfIsbn.get(isbn13);
  if (earlier !== undefined) return `This ISBN is on line ${earlier} too.`;
  if (!PRICE.test(row.price)) return refuse.copyPrice().message;
  if (!isStock(row.stock)) return `Stock ${STOCK_RANGE}`;
  if (row.exportedStock !== '' && !isStock(row.exportedStock))
    return `Exported stock ${STOCK_RANGE} Leave it as the export wrote it, or empty.`;
  if (!AVAILABLE.has(row.available)) return 'Available must be true or false.';
  if (row.exportedPrice !== '' && !PRICE.test(row.exportedPrice))
    return 'Exported price is not a price. Leave it as the export wrote it, or empty.';
  if (row.exportedAvailable !== '' && !AVAILABLE.has(row.exportedAvailable))
    return 'Exported available must be true or false. Leave it as the export wrote it, or empty.';
  if (row.copyId !== '' && !(COPY_ID_TEXT.test(row.copyId) && Number(row.copyId) <= COPY_ID_MAX))
    return 'Copy id is not a copy. Leave it as the export wrote it, or empty.';
  if (row.exportedLedger !== '' && !LEDGER_TEXT.test(row.exportedLedger))
    return 'Exported ledger is not a ledger entry. Leave it as the export wrote it, or empty.';
  return null;
}

/**
 * A cell as the dry run's report repeats it: an ISBN is at most 17 characters with its hyphens, and a
 * cell of kilobytes (a record may hold 64 KB) repeated in 200 invalid rows made a report of megabytes,
 * kept with the job and sent again at every poll of its progress.
 */
const SHOWN_CELL_CHARACTERS = 40;
const shownCell = (cell: string) =>
  [...cell].length > SHOWN_CELL_CHARACTERS ? `${[...cell].slice(0, SHOWN_CELL_CHARACTERS - 1).join('')}…` : cell;

/** Reads and checks the file row by row (a 400 when the file as a whole is unusable). */
export function readImportFile(text: string): ImportFile {
  const file = fileRows(text);
  const checked: CheckedRow[] = [];
  const invalid: InvalidImportRow[] = [];
  const lineOfIsbn = new Map<string, number>();
  for (const row of file.rows) {
    const isbn13 = toIsbn13(row.isbn);
    const reason = rowProblem(row, isbn13, lineOfIsbn);
    const available = AVAILABLE.get(row.available);
    if (reason !== null || isbn13 === null || available === undefined) {
      invalid.push({ line: row.line, isbn: shownCell(row.isbn), reason: reason ?? '' });
      continue;
    }
    lineOfIsbn.set(isbn13, row.line);
    checked.push({
      line: row.line,
      isbn13,
      price: Number(row.price).toFixed(2),
      stock: Number(row.stock),
      available,
      ...(row.exportedStock === '' ? {} : { exportedStock: Number(row.exportedStock) }),
      ...(row.exportedPrice === '' ? {} : { exportedPrice: Number(row.exportedPrice).toFixed(2) }),
      ...(row.exportedAvailable === '' ? {} : { exportedAvailable: AVAILABLE.get(row.exportedAvailable) }),
      ...(row.copyId === '' ? {} : { copyId: Number(row.copyId) }),
      ...(row.exportedLedger === '' ? {} : { exportedLedger: Number(row.exportedLedger) }),
      ...(file.hasExportedStock && row.exportedStock === '' ? { noCopyAtExport: true as const } : {}),
    });
  }
  return {
    hasExportedStock: file.hasExportedStock,
    hasExportedLedger: file.hasExportedLedger,
    hasExportedPrice: file.hasExportedPrice,
    hasExportedAvailable: file.hasExportedAvailable,
    checked,
    invalid,
  };
}

/** The ISBNs to look up: those the shop lacks, the first IMPORT_MAX_NEW_BOOKS of them in the file's order. */
export function isbnsToLookUp(file: ImportFile, inShop: ReadonlyMap<string, ShopCopy | null>) {
  return file.checked
    .filter((row) => !inShop.has(row.isbn13))
    .slice(0, IMPORT_MAX_NEW_BOOKS)
    .map((row) => row.isbn13);
}

type Verdict = { row: ImportPlanRow; moved?: MovedImportRow } | { invalid: InvalidImportRow };

const samePrice = (a: string, b: string) => toCents(a) === toCents(b);
/**
 * The price of the copy after the row, three ways: the file's value where the file changed it from
 * what the export saw (or no export value is known), else the shop's now; 'both' where the shop
 * changed it since the export too, to something else than the file says.
 */
function mergedPrice(file: string, exported: string | undefined, now: string): string | 'both' {
  if (exported === undefined) return file;
  if (samePrice(file, exported)) return now;
  return samePrice(now, exported) || samePrice(now, file) ? file : 'both';
}

/**
 * Whether the row changes the stock by what the export saw (stock - exported_stock), and says which
 * ledger entry the export saw: such a change is made once, and an import of the copy's stock since
 * the export (the same file run before) makes the row's change a second time.
 */
export const changesStockSinceLedger = (row: CheckedRow): row is CheckedRow & { exportedStock: number; exportedLedger: number } =>
  row.exportedStock !== undefined && row.exportedLedger !== undefined && row.stock !== row.exportedStock;

/** A row whose book the shop has: changed or unchanged, with exported_stock moved or refused, with exported_price merged or refused, with exported_available merged. */
function compareWithShop({ noCopyAtExport, ...row }: CheckedRow, copy: ShopCopy | null, importedSince: boolean): Verdict {
  // What the row says it saw was another copy's: a copy moved to this book since the export, or its
  // first deleted, made another copy the first, and the row's change would land on it unseen.
  if (row.copyId !== undefined && row.copyId !== copy?.id) {
    const now = copy ? `its first copy is copy ${copy.id} now` : 'the book has no copy now';
    const reason = `The row was exported from copy ${row.copyId}, and ${now}: export again, or set it on the Book Copies screen.`;
    return { invalid: { line: row.line, isbn: row.isbn13, reason } };
  }
  // A book without a copy: the row makes its first. One the export saw without a copy had none of
  // its stock then, so a copy added between this check and the run gets the row's stock on top of its own.
  if (!copy) return { row: { ...row, ...(noCopyAtExport && { exportedStock: 0 }), kind: 'changed' } };
  // Its stock would be written over the copy added since, its sales and restocks with it, unseen.
  if (noCopyAtExport) {
    const reason = `The book had no copy when the file was exported, and has one now (stock ${copy.quantity}, price ${copy.price}): export again, or set it on the Book Copies screen.`;
    return { invalid: { line: row.line, isbn: row.isbn13, reason } };
  }
  if (importedSince) {
    const reason = `An import changed this copy's stock since the file was exported (this file, run already?), so its change from ${row.exportedStock} to ${row.stock} may be in the shop already (stock ${copy.quantity} now): export again, or set it on the Book Copies screen.`;
    return { invalid: { line: row.line, isbn: row.isbn13, reason } };
  }
  const priceAfter = mergedPrice(row.price, row.exportedPrice, copy.price);
  if (priceAfter === 'both') {
    const reason = `The price changed in the shop since the export (${row.exportedPrice} then, ${copy.price} now) and in the file (${row.price}): export again, or set it on the Book Copies screen.`;
    return { invalid: { line: row.line, isbn: row.isbn13, reason } };
  }
  // On sale or not: changed by both, it changed the same way, so it is never 'both'.
  const availableAfter = row.exportedAvailable === undefined || row.available !== row.exportedAvailable ? row.available : copy.isAvailable;
  let stockAfter = row.stock;
  let moved: MovedImportRow | undefined;
  if (row.exportedStock !== undefined) {
    stockAfter = copy.quantity + row.stock - row.exportedStock;
    if (copy.quantity !== row.exportedStock) {
      if (stockAfter < 0 || stockAfter > STOCK_MAX) {
        const reason = `The stock moved since the export (${row.exportedStock} then, ${copy.quantity} now): the file's change would leave ${stockAfter}.`;
        return { invalid: { line: row.line, isbn: row.isbn13, reason } };
      }
      moved = { line: row.line, isbn: row.isbn13, exportedStock: row.exportedStock, stockNow: copy.quantity, stockAfter };
    }
  }
  const same = samePrice(copy.price, priceAfter) && copy.quantity === stockAfter && copy.isAvailable === availableAfter;
  return { row: { ...row, kind: same ? 'unchanged' : 'changed' }, moved };
}

/** A row whose book the shop lacks: new when the lookup found it, else invalid with the reason. */
function newBook({ noCopyAtExport: _noCopy, copyId: _copy, ...row }: CheckedRow, outcome: LookupOutcome | undefined): Verdict {
  // A book the shop no longer has (deleted since the export, or a file from another shop) is added
  // with a first copy of its own: the copy the row was read from is not the shop's to compare.
  const refused = (reason: string): Verdict => ({ invalid: { line: row.line, isbn: row.isbn13, reason } });
  if (outcome === undefined) {
    return refused(`One file may add at most ${IMPORT_MAX_NEW_BOOKS} books the shop does not have yet; import the rest in another file.`);
  }
  if (outcome === 'failed') return refused('The ISBN lookup failed; check the file again later.');
  if (outcome === 'not found') return refused('No book was found for this ISBN.');
  return { row: { ...row, kind: 'new', found: outcome.found } };
}

/**
 * The plan: every checked row compared with the shop's copy of its book (`inShop`, by ISBN) or,
 * for a book the shop lacks, with its lookup (`lookedUp`, by ISBN; a row not looked up is over the
 * limit of new books). The summary counts every row; the plan keeps the rows to write.
 */
export function planImport(
  file: ImportFile,
  inShop: ReadonlyMap<string, ShopCopy | null>,
  lookedUp: ReadonlyMap<string, LookupOutcome>,
  /** The ISBNs of the rows (changesStockSinceLedger) whose copy's stock an import moved since the export. */
  importedSince: ReadonlySet<string> = new Set(),
): { summary: ImportSummary; rows: ImportPlanRow[] } {
  const planned: ImportPlanRow[] = [];
  const invalid = [...file.invalid];
  const moved: MovedImportRow[] = [];
  for (const row of file.checked) {
    const copy = inShop.get(row.isbn13);
    const verdict = copy === undefined ? newBook(row, lookedUp.get(row.isbn13)) : compareWithShop(row, copy, importedSince.has(row.isbn13));
    if ('invalid' in verdict) invalid.push(verdict.invalid);
    else {
      planned.push(verdict.row);
      if (verdict.moved) moved.push(verdict.moved);
    }
  }
  invalid.sort((a, b) => a.line - b.line);
  const count = (kind: ImportPlanRow['kind']) => planned.filter((row) => row.kind === kind).length;
  const summary: ImportSummary = {
    rows: planned.length + invalid.length,
    new: count('new'),
    changed: count('changed'),
    unchanged: count('unchanged'),
    invalid: invalid.length,
    invalidRows: invalid.slice(0, IMPORT_REPORTED_INVALID),
    moved: moved.length,
    movedRows: moved.slice(0, IMPORT_REPORTED_INVALID),
    warnings: [
      ...(file.hasExportedStock ? [] : [NO_EXPORTED_STOCK_WARNING]),
      ...(file.hasExportedStock && !file.hasExportedLedger ? [NO_EXPORTED_LEDGER_WARNING] : []),
      ...(file.hasExportedPrice && file.hasExportedAvailable
        ? []
        : [noExportedCopyFieldsWarning({ price: !file.hasExportedPrice, available: !file.hasExportedAvailable })]),
    ],
  };
  return { summary, rows: planned.filter((row) => row.kind !== 'unchanged') };
}
