import { type Static, Type } from 'typebox';
import { Body, PositiveInt } from './common.ts';

export const Author = Type.Object({ id: Type.Integer(), fullName: Type.String() }, { $id: 'Author' });

export const Book = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    pagesNumber: Type.Union([Type.Integer(), Type.Null()]),
    authorId: Type.Integer(),
    typeId: Type.Integer(),
    publishedAt: Type.Union([Type.String({ format: 'date' }), Type.Null()]),
  },
  { $id: 'Book' },
);

export const Copy = Type.Object(
  { id: Type.Integer(), bookId: Type.Integer(), quantity: Type.Integer(), price: Type.Number(), isAvailable: Type.Boolean() },
  { $id: 'BookCopyAdmin' },
);

/** The most units one copy may hold in stock: the copy form's, a restock's and an import's bound. */
export const STOCK_MAX = 1000000;

export const CopyFields = {
  bookId: PositiveInt,
  quantity: Type.Integer({ minimum: 0, maximum: STOCK_MAX }),
  price: Type.Number({ minimum: 0, maximum: 99999999 }),
  isAvailable: Type.Boolean(),
};

export const CopyBody = Body(CopyFields);
export type CopyInput = Static<typeof CopyBody>;

/** A book's edit (Edit Book). Each field but the id may be left out: what is sent changes. */
export const BookUpdateBody = Body({
  id: PositiveInt,
  name: Type.Optional(Type.String({ maxLength: 300 })),
  pagesNumber: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 100000 }), Type.Null()])),
  authorId: Type.Optional(PositiveInt),
  typeId: Type.Optional(PositiveInt),
  publishedAt: Type.Optional(Type.Union([Type.String({ maxLength: 30 }), Type.Null()])),
});
export type BookUpdate = Static<typeof BookUpdateBody>;
