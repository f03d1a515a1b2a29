import { Type } from 'typebox';

export const BookCard = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    imageUrl: Type.Union([Type.String(), Type.Null()]),
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
    imageUrl: Type.Union([Type.String(), Type.Null()]),
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
