import { Type } from 'typebox';
import { ImageUrl } from './common.ts';

/** Beyond the spec's fields: where the author's name links to (their page, /authors/{id}-{slug}). */
const AuthorId = Type.Integer({ description: "The author's id: their page lists their books on sale." });

export const BookCard = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    imageUrl: ImageUrl,
    authorName: Type.String(),
    authorId: AuthorId,
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
    authorId: AuthorId,
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

/** An author's page: their books on sale, with the ratings, a page at a time (beyond the spec). */
export const AuthorPage = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    books: Type.Array(Type.Ref('BookDetail')),
    totalBooks: Type.Integer(),
    totalPages: Type.Integer(),
  },
  { $id: 'AuthorPage' },
);
