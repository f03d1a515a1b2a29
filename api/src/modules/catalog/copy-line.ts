// A copy as the client's own lists show it (the cart's lines, the wishlist): its price, stock and
// state, and its book's title, cover and author. One select, so both read the same columns.
import type { Prisma } from '../../generated/prisma/client.ts';
import { coverUrl } from '../../lib/cover.ts';

export const copyLineSelect = {
  id: true,
  price: true,
  quantity: true,
  isAvailable: true,
  book: { select: { name: true, imageUrl: true, authorId: true, author: { select: { fullName: true } } } },
} satisfies Prisma.BookCopySelect;

type CopyLine = Prisma.BookCopyGetPayload<{ select: typeof copyLineSelect }>;

/** The copy's cover: its book's image over https, or one drawn from its title and author. */
export const copyLineCover = (copy: CopyLine) => coverUrl(copy.book.imageUrl, copy.book.name, copy.book.author.fullName);
