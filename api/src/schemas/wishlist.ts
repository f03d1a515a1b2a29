// Wishlists and back-in-stock notices (beyond the spec).
import { Type } from 'typebox';
import { ImageUrl } from './common.ts';

/** A wished-for copy, as its card shows it, and whether it can be bought now. */
export const WishlistBook = Type.Object(
  {
    id: Type.Integer({ description: 'The book copy id' }),
    name: Type.String(),
    imageUrl: ImageUrl,
    authorName: Type.String(),
    authorId: Type.Integer(),
    price: Type.Number(),
    quantity: Type.Integer(),
    available: Type.Boolean({ description: 'On sale (the shop may withdraw a copy); with quantity > 0, it can be bought' }),
  },
  { $id: 'WishlistBook' },
);

export const ClientNotice = Type.Object(
  {
    id: Type.Integer(),
    kind: Type.Literal('back_in_stock'),
    bookCopyId: Type.Integer(),
    bookName: Type.String(),
    message: Type.String({ description: "What the bell says, e.g. 'Dune is back in stock.'" }),
    createdAt: Type.String({ format: 'date-time' }),
    read: Type.Boolean(),
  },
  { $id: 'ClientNotice' },
);
