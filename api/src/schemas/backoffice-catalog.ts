import { STOCK_MAX } from '@bookshop/rules';
import { type Static, Type } from 'typebox';
import { Body, PositiveInt } from './common.ts';

const Version = (raisedBy: string) =>
  Type.Integer({ description: `Raised by ${raisedBy}; a save sends the one it read as If-Match: "<version>"` });

export const Author = Type.Object({ id: Type.Integer(), fullName: Type.String(), version: Version('every rename') }, { $id: 'Author' });

export const Book = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    pagesNumber: Type.Union([Type.Integer(), Type.Null()]),
    authorId: Type.Integer(),
    typeId: Type.Integer(),
    publishedAt: Type.Union([Type.String({ format: 'date' }), Type.Null()]),
    version: Version('every change of the fields above'),
  },
  { $id: 'Book' },
);

export const Copy = Type.Object(
  {
    id: Type.Integer(),
    bookId: Type.Integer(),
    quantity: Type.Integer(),
    price: Type.Number(),
    isAvailable: Type.Boolean(),
    version: Version('every change of the copy'),
  },
  { $id: 'BookCopyAdmin' },
);

/** What a save says it read: the row's ETag, `"<version>"` (a weak `W/` one too). */
export const IfMatchHeader = Type.Object({
  'if-match': Type.Optional(
    Type.String({
      maxLength: 40,
      description:
        'The ETag of the row as it was read. When it is no longer current the save or delete is refused with 412 and the row now.',
    }),
  ),
});

export const StockMovement = Type.Object(
  {
    id: Type.Integer(),
    at: Type.String({ format: 'date-time' }),
    change: Type.Integer({ description: 'Units added (positive) or taken (negative)' }),
    stockAfter: Type.Integer(),
    reason: Type.Union(
      ['opening', 'new_copy', 'sale', 'cancellation', 'staff_edit', 'import', 'restock', 'correction'].map((r) => Type.Literal(r)),
      { description: 'correction: changed outside the shop (by hand in the database)' },
    ),
    actor: Type.Union([Type.String(), Type.Null()], { description: 'The employee, `employee:<id>`, of a back-office change' }),
    reference: Type.Union([Type.String(), Type.Null()], { description: 'What the movement belongs to, e.g. `import:<job id>`' }),
  },
  { $id: 'StockMovement' },
);

/** A copy's highest price: the column's (numeric(10,2)), as the import's file may give it too. */
export const COPY_PRICE_MAX = 99999999.99;

export const CopyFields = {
  bookId: PositiveInt,
  quantity: Type.Integer({ minimum: 0, maximum: STOCK_MAX }),
  price: Type.Number({ minimum: 0, maximum: COPY_PRICE_MAX }),
  isAvailable: Type.Boolean(),
};

export const CopyBody = Body(CopyFields);
export type CopyInput = Static<typeof CopyBody>;

/** A book's or an author's longest name, in characters (a JavaScript length counts an emoji twice). */
export const NAME_MAX_CHARACTERS = 300;

/** A book's most pages, as an edit or a looked-up record may give them. */
export const BOOK_PAGES_MAX = 100_000;

/** A book's edit (Edit Book). Each field but the id may be left out: what is sent changes. */
export const BookUpdateBody = Body({
  id: PositiveInt,
  name: Type.Optional(Type.String({ maxLength: NAME_MAX_CHARACTERS })),
  pagesNumber: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: BOOK_PAGES_MAX }), Type.Null()])),
  authorId: Type.Optional(PositiveInt),
  typeId: Type.Optional(PositiveInt),
  publishedAt: Type.Optional(Type.Union([Type.String({ maxLength: 30 }), Type.Null()])),
});
export type BookUpdate = Static<typeof BookUpdateBody>;
