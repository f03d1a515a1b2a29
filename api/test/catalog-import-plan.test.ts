// The import's plan without a database: the file read and checked, then compared with the shop's
// copies and the ISBN lookups as the repository and the lookup would hand them over.

import { STOCK_MAX } from '@bookshop/rules';
import { describe, expect, it } from 'vitest';
import { isbn13CheckDigit } from '../src/lib/isbn.ts';
import {
  IMPORT_MAX_NEW_BOOKS,
  isbnsToLookUp,
  type LookupOutcome,
  NO_EXPORTED_LEDGER_WARNING,
  NO_EXPORTED_PRICE_WARNING,
  NO_EXPORTED_STOCK_WARNING,
  noExportedCopyFieldsWarning,
  planImport,
  readImportFile,
  type ShopCopy,
} from '../src/modules/catalog-admin/catalog-import-plan.ts';
import { IMPORT_MAX_ROWS, IMPORT_REPORTED_INVALID } from '../src/schemas/staff.ts';

/** A valid ISBN-13 made from a number: 978 and nine digits, with its check digit. */
const isbn = (n: number) => {
  const body = `978${String(n).padStart(9, '0')}`;
  return body + isbn13CheckDigit(body);
};
const [A, B, C, D] = [1, 2, 3, 4].map(isbn) as [string, string, string, string];
const copy = (quantity: number, price = '10.00', isAvailable = true, id = 1): ShopCopy => ({ id, price, quantity, isAvailable });
const found = (title: string): LookupOutcome => ({
  found: { title, author: 'Someone', category: null, publishedYear: 2001, pagesNumber: 100, imageUrl: null, description: null, typeId: 7 },
});
const refusal = (work: () => unknown) => {
  try {
    work();
  } catch (error) {
    return { status: (error as { statusCode?: number }).statusCode, message: (error as Error).message };
  }
  throw new Error('no refusal');
};
/** Reads, compares and plans, as the service does with the repository's and the lookup's answers. */
const plan = (text: string, inShop: [string, ShopCopy | null][], lookedUp: [string, LookupOutcome][] = []) =>
  planImport(readImportFile(text), new Map(inShop), new Map(lookedUp));

describe('reading an import file', () => {
  it('finds the columns by name in any case and order, ignores others, and numbers rows by their line in the file', () => {
    const file = readImportFile(
      ['Note,AVAILABLE,Stock,price,ISBN', '"two', `lines",yes,3,4.5,${A.slice(0, 3)}-${A.slice(3)}`, '', 'x,0,2,1,0000000027'].join('\n'),
    );
    expect(file.hasExportedStock).toBe(false);
    expect(file.invalid).toEqual([]);
    expect(file.checked).toEqual([
      { line: 3, isbn13: A, price: '4.50', stock: 3, available: true },
      // An ISBN-10 is stored as its ISBN-13.
      { line: 5, isbn13: B, price: '1.00', stock: 2, available: false },
    ]);
  });

  it('gives each bad row its reason, and a repeated ISBN the line it first came on', () => {
    const file = readImportFile(
      [
        'isbn,price,stock,available,exported_stock',
        `${A},1.00,1,true,`,
        '9780000000001,1.00,1,true,',
        `${A},2.00,1,true,`,
        `${B},1.999,1,true,`,
        `${C},1.00,${STOCK_MAX + 1},true,`,
        `${C},1.00,1,true,-1`,
        `${D},1.00,1,constructor,`,
        `${'9'.repeat(5000)},1.00,1,true,`,
      ].join('\n'),
    );
    expect(file.checked.map((row) => row.line)).toEqual([2]);
    expect(file.invalid).toEqual([
      { line: 3, isbn: '9780000000001', reason: 'This is not a valid ISBN.' },
      { line: 4, isbn: A, reason: 'This ISBN is on line 2 too.' },
      { line: 5, isbn: B, reason: 'Price must be 0 or more, with at most 2 decimals.' },
      { line: 6, isbn: C, reason: 'Stock must be a whole number from 0 to 1,000,000.' },
      { line: 7, isbn: C, reason: 'Exported stock must be a whole number from 0 to 1,000,000. Leave it as the export wrote it, or empty.' },
      // A key of Object.prototype is no answer to 'available'.
      { line: 8, isbn: D, reason: 'Available must be true or false.' },
      // A cell of kilobytes is repeated in the report as its start.
      { line: 9, isbn: `${'9'.repeat(39)}…`, reason: 'This is not a valid ISBN.' },
    ]);
  });

  it('refuses a file it cannot use with a 400 the screen shows', () => {
    expect(refusal(() => readImportFile('isbn,price\n9780261103344,1.00'))).toEqual({
      status: 400,
      message: "The file's first line must name the columns isbn, price, stock, available.",
    });
    expect(refusal(() => readImportFile('isbn,price,stock,available\n"9780261103344,1.00,1,true'))).toMatchObject({
      status: 400,
      message: expect.stringMatching(/^The file is not valid CSV: /),
    });
    expect(refusal(() => readImportFile('isbn,price,stock,available\n'))).toEqual({
      status: 400,
      message: 'The file has no rows under its header.',
    });
    const tooLong = `isbn,price,stock,available\n${`${A},1.00,1,true\n`.repeat(IMPORT_MAX_ROWS + 1)}`;
    expect(refusal(() => readImportFile(tooLong))).toEqual({ status: 400, message: 'A file can hold at most 100,000 rows.' });
  });
});

describe('planning an import against the shop', () => {
  it('with copy_id, writes a row only to the copy it was exported from: another first copy, or none, refuses it; a copy_id that is no copy is invalid', () => {
    const { summary, rows } = plan(
      [
        'isbn,price,stock,available,exported_stock,copy_id',
        `${A},10.00,6,true,5,41`, // exported from the book's first copy, still its first
        `${B},10.00,6,true,5,42`, // a copy with a lower id was moved to the book since: it is the first now
        `${C},10.00,6,true,5,43`, // the book's copy was deleted since
        `${D},10.00,6,true,5,copy-44`,
        `${isbn(5)},10.00,6,true,5,45`, // the shop has no such book (deleted since, or another shop's file): a new book
      ].join('\n'),
      [
        [A, copy(5, '10.00', true, 41)],
        [B, copy(9, '10.00', true, 7)],
        [C, null],
        [D, copy(5, '10.00', true, 44)],
      ],
      [[isbn(5), found('Gone since')]],
    );
    expect(rows).toEqual([
      expect.objectContaining({ line: 2, isbn13: A, copyId: 41, kind: 'changed' }),
      expect.not.objectContaining({ copyId: expect.anything() }),
    ]);
    expect(rows[1]).toMatchObject({ line: 6, isbn13: isbn(5), kind: 'new' });
    expect(summary.invalidRows).toEqual([
      {
        line: 3,
        isbn: B,
        reason: 'The row was exported from copy 42, and its first copy is copy 7 now: export again, or set it on the Book Copies screen.',
      },
      {
        line: 4,
        isbn: C,
        reason: 'The row was exported from copy 43, and the book has no copy now: export again, or set it on the Book Copies screen.',
      },
      { line: 5, isbn: D, reason: 'Copy id is not a copy. Leave it as the export wrote it, or empty.' },
    ]);
  });

  it("with exported_price and exported_available, writes each only where the file changed it: the shop's changes since stand, and both changing it differently is refused", () => {
    const header = 'isbn,price,stock,available,exported_stock,exported_price,exported_available';
    const { summary, rows } = plan(
      [
        header,
        `${A},10.00,5,true,5,10.00,true`, // the shop repriced it (12.00) and took it off sale since: the file changed neither
        `${B},11.00,5,true,5,10.00,true`, // the file repriced it; the shop did not
        `${C},11.00,5,true,5,10.00,true`, // the file and the shop both repriced it, differently
        `${D},10.00,5,false,5,10.00,true`, // the file takes it off sale; the shop put it at 9.00
      ].join('\n'),
      [
        [A, copy(5, '12.00', false)],
        [B, copy(5)],
        [C, copy(5, '12.00')],
        [D, copy(5, '9.00')],
      ],
    );
    // A file with exported_stock but not exported_ledger (an export from before it): a second import would change the stock again.
    expect(summary).toMatchObject({ rows: 4, unchanged: 1, changed: 2, invalid: 1, warnings: [NO_EXPORTED_LEDGER_WARNING] });
    expect(summary.invalidRows).toEqual([
      {
        line: 4,
        isbn: C,
        reason:
          'The price changed in the shop since the export (10.00 then, 12.00 now) and in the file (11.00): export again, or set it on the Book Copies screen.',
      },
    ]);
    // A file with only one of the two columns merges that field, and is warned of the other alone.
    const priceOnly = plan(
      [`isbn,price,stock,available,exported_stock,exported_price,exported_ledger`, `${A},10.00,5,true,5,10.00,7`].join('\n'),
      [[A, copy(5, '12.00', false)]],
    );
    expect(priceOnly.summary).toMatchObject({ unchanged: 0, changed: 1 });
    expect(priceOnly.summary.warnings).toEqual([noExportedCopyFieldsWarning({ price: false, available: true })]);
    expect(priceOnly.summary.warnings[0]).toMatch(
      /^The file has no exported_available column, so each row's availability replaces the shop's/,
    );
    // The plan keeps what the export saw: the run writes a field only where the file changed it, against the shop as it is then.
    expect(rows).toEqual([
      {
        line: 3,
        isbn13: B,
        price: '11.00',
        stock: 5,
        available: true,
        exportedStock: 5,
        exportedPrice: '10.00',
        exportedAvailable: true,
        kind: 'changed',
      },
      {
        line: 5,
        isbn13: D,
        price: '10.00',
        stock: 5,
        available: false,
        exportedStock: 5,
        exportedPrice: '10.00',
        exportedAvailable: true,
        kind: 'changed',
      },
    ]);
  });

  it('sorts rows into new, changed and unchanged, plans only what changes, and counts every row', () => {
    const { summary, rows } = plan(
      [
        'isbn,price,stock,available',
        `${A},10,5,true`, // as the shop has it (10 is 10.00)
        `${B},12.00,5,true`, // a new price
        `${C},1.00,1,false`, // a book the shop has without a copy
        `${D},3.00,2,true`, // a book the shop lacks, found by the lookup
      ].join('\n'),
      [
        [A, copy(5)],
        [B, copy(5)],
        [C, null],
      ],
      [[D, found('Found')]],
    );
    expect(summary).toEqual({
      rows: 4,
      new: 1,
      changed: 2,
      unchanged: 1,
      invalid: 0,
      invalidRows: [],
      moved: 0,
      movedRows: [],
      warnings: [NO_EXPORTED_STOCK_WARNING, NO_EXPORTED_PRICE_WARNING],
    });
    expect(rows.map(({ isbn13, kind }) => [isbn13, kind])).toEqual([
      [B, 'changed'],
      [C, 'changed'],
      [D, 'new'],
    ]);
    expect(rows[2]).toMatchObject({ line: 5, price: '3.00', stock: 2, available: true, found: { title: 'Found', typeId: 7 } });
  });

  it('with exported_stock, applies the change on top of the stock now: moved rows listed, impossible ones refused (decision 12)', () => {
    const { summary, rows } = plan(
      [
        'isbn,price,stock,available,exported_stock',
        `${A},10.00,12,true,10`, // sold 3 since the export (10 then, 7 now): +2 leaves 9
        `${B},10.00,10,true,10`, // sold since, no change in the file: unchanged, and listed as moved
        `${C},10.00,0,true,10`, // -10, but only 2 are left: refused
        `${D},10.00,6,true,4`, // no sale since: the file's stock as written
      ].join('\n'),
      [
        [A, copy(7)],
        [B, copy(7)],
        [C, copy(2)],
        [D, copy(4)],
      ],
    );
    expect(summary).toMatchObject({
      rows: 4,
      new: 0,
      changed: 2,
      unchanged: 1,
      invalid: 1,
      moved: 2,
      warnings: [NO_EXPORTED_LEDGER_WARNING, NO_EXPORTED_PRICE_WARNING],
    });
    expect(summary.movedRows).toEqual([
      { line: 2, isbn: A, exportedStock: 10, stockNow: 7, stockAfter: 9 },
      { line: 3, isbn: B, exportedStock: 10, stockNow: 7, stockAfter: 7 },
    ]);
    expect(summary.invalidRows).toEqual([
      { line: 4, isbn: C, reason: "The stock moved since the export (10 then, 2 now): the file's change would leave -8." },
    ]);
    // The plan keeps exported_stock: the run applies the change to the stock as it is then.
    expect(rows).toEqual([
      { line: 2, isbn13: A, price: '10.00', stock: 12, available: true, exportedStock: 10, kind: 'changed' },
      { line: 5, isbn13: D, price: '10.00', stock: 6, available: true, exportedStock: 4, kind: 'changed' },
    ]);
  });

  it('with exported_stock, a row the export left blank (its book had no copy then) makes a first copy, and is refused where one was added since', () => {
    const { summary, rows } = plan(['isbn,price,stock,available,exported_stock', `${A},12.00,5,true,`, `${B},12.00,5,true,`].join('\n'), [
      [A, null],
      [B, copy(20, '9.50')],
    ]);
    // At the run, a copy added after this check gets the row's stock on top of its own (exported as none).
    expect(rows).toEqual([{ line: 2, isbn13: A, price: '12.00', stock: 5, available: true, exportedStock: 0, kind: 'changed' }]);
    expect(summary.invalidRows).toEqual([
      {
        line: 3,
        isbn: B,
        reason:
          'The book had no copy when the file was exported, and has one now (stock 20, price 9.50): export again, or set it on the Book Copies screen.',
      },
    ]);
  });

  it('refuses a change that would go past the most a copy may hold', () => {
    const { summary } = plan(`isbn,price,stock,available,exported_stock\n${A},10.00,${STOCK_MAX},true,0`, [[A, copy(5)]]);
    expect(summary.invalidRows).toEqual([
      { line: 2, isbn: A, reason: `The stock moved since the export (0 then, 5 now): the file's change would leave ${STOCK_MAX + 5}.` },
    ]);
  });

  it('looks up at most IMPORT_MAX_NEW_BOOKS books the shop lacks, in file order, and says why the others are refused', () => {
    const lacking = Array.from({ length: IMPORT_MAX_NEW_BOOKS + 3 }, (_, i) => isbn(100 + i));
    const text = ['isbn,price,stock,available', `${A},10.00,1,true`, ...lacking.map((n) => `${n},1.00,1,true`)].join('\n');
    const file = readImportFile(text);
    const inShop = new Map([[A, copy(1)]]);
    const asked = isbnsToLookUp(file, inShop);
    expect(asked).toEqual(lacking.slice(0, IMPORT_MAX_NEW_BOOKS));
    const answers = new Map<string, LookupOutcome>(asked.map((n, i) => [n, i === 0 ? 'not found' : i === 1 ? 'failed' : found(n)]));
    const { summary, rows } = planImport(file, inShop, answers);
    expect(summary).toMatchObject({ rows: IMPORT_MAX_NEW_BOOKS + 4, new: IMPORT_MAX_NEW_BOOKS - 2, unchanged: 1, invalid: 5 });
    expect(summary.invalidRows.slice(0, 3)).toEqual([
      { line: 3, isbn: lacking[0], reason: 'No book was found for this ISBN.' },
      { line: 4, isbn: lacking[1], reason: 'The ISBN lookup failed; check the file again later.' },
      {
        line: IMPORT_MAX_NEW_BOOKS + 3,
        isbn: lacking[IMPORT_MAX_NEW_BOOKS],
        reason: `One file may add at most ${IMPORT_MAX_NEW_BOOKS} books the shop does not have yet; import the rest in another file.`,
      },
    ]);
    expect(rows.every((row) => row.kind === 'new')).toBe(true);
  });

  it('reports the first IMPORT_REPORTED_INVALID invalid rows by line, file and shop refusals together, and counts them all', () => {
    const bad = Array.from({ length: IMPORT_REPORTED_INVALID + 1 }, () => 'nope,1.00,1,true');
    const { summary } = plan(['isbn,price,stock,available,exported_stock', `${A},1.00,0,true,9`, ...bad].join('\n'), [[A, copy(0)]]);
    expect(summary.invalid).toBe(IMPORT_REPORTED_INVALID + 2);
    expect(summary.invalidRows).toHaveLength(IMPORT_REPORTED_INVALID);
    expect(summary.invalidRows.map((row) => row.line)).toEqual(Array.from({ length: IMPORT_REPORTED_INVALID }, (_, i) => i + 2));
    expect(summary.invalidRows[0]?.reason).toMatch(/^The stock moved since the export/);
  });
});
