import { Type } from 'typebox';
import { ImageUrl } from './common.ts';

export const BookCard = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    imageUrl: ImageUrl,
    authorName: Type.String(),
    price: Type.Number(),
    quantity: Type.Integer(),
  },
  { $id: 'BookCard' },
);

export const BookDetail = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    imageUrl: ImageUrl,
    author: Type.String(),
    authorName: Type.String(),
    category: Type.String(),
    price: Type.Number(),
    quantity: Type.Integer(),
    description: Type.String(),
    averageRating: Type.Number(),
    ratingsCount: Type.Integer(),
  },
  { $id: 'BookDetail' },
);

export const BookType = Type.Object({ id: Type.Integer(), name: Type.String() }, { $id: 'BookType' });
