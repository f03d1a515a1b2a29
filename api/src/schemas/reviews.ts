// Buyers' ratings and reviews (beyond the spec).
import { REVIEW_MAX_LENGTH } from '@bookshop/rules';
import { Type } from 'typebox';
import { Body } from './common.ts';

/** A review as the storefront shows it: the reviewer by first name and initial only. */
export const Review = Type.Object(
  {
    id: Type.Integer(),
    stars: Type.Integer({ minimum: 1, maximum: 5 }),
    review: Type.String({ description: 'The text; empty when the client gave stars only' }),
    reviewer: Type.String({ description: "First name and the last name's initial, e.g. 'Nadia R.'" }),
    updatedAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'Review' },
);

export const ReviewPage = Type.Object(
  { reviews: Type.Array(Type.Ref('Review')), totalReviews: Type.Integer(), totalPages: Type.Integer() },
  { $id: 'ReviewPage' },
);

/** The signed-in client's own rating of a book, and whether they may write one. */
export const MyReview = Type.Object(
  {
    canReview: Type.Boolean({ description: 'True once an order of the book has shipped, been delivered or succeeded' }),
    stars: Type.Integer({ minimum: 0, maximum: 5, description: '0 when the client has not rated the book' }),
    review: Type.String(),
    hidden: Type.Boolean({ description: 'An Admin hid it: the storefront does not show it' }),
    reviewer: Type.String({ description: "The client's name as the storefront shows their review, e.g. 'Nadia R.'" }),
  },
  { $id: 'MyReview' },
);

export const ReviewInput = Body({
  stars: Type.Integer({ minimum: 1, maximum: 5 }),
  review: Type.Optional(Type.String({ maxLength: REVIEW_MAX_LENGTH })),
});

/** A review in the back-office's list, hidden ones included. */
export const BackofficeReview = Type.Object(
  {
    id: Type.Integer(),
    bookId: Type.Integer(),
    bookName: Type.String(),
    clientId: Type.Integer(),
    reviewer: Type.String(),
    stars: Type.Integer({ minimum: 1, maximum: 5 }),
    review: Type.String(),
    updatedAt: Type.String({ format: 'date-time' }),
    hidden: Type.Boolean(),
  },
  { $id: 'BackofficeReview' },
);
