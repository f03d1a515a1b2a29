// Buyers' ratings and reviews (beyond the spec). A client rates a book, not a copy: a book's copies
// share its reviews, and the storefront's copy id leads to its book. Only a client with a shipped,
// delivered or successful order of the book may rate it, once, and may change the rating later.
// The book's ratings_count and ratings_sum carry the catalog's figures plus the visible reviews
// (a trigger keeps them in step), so every average in the shop, Top Rated's order included, is the
// combined one without a join.
import { badRequest } from '../../lib/errors.ts';
import { refuse } from '../../lib/refusals.ts';
import type { EmitCatalogEvent } from '../catalog/catalog-events.ts';
import type { ReviewRepository } from './review-repository.ts';

/** 'Nadia R.': the first name and the last name's first character (a whole one, emoji and accents included). */
const reviewer = (client: { firstName: string; lastName: string }) => `${client.firstName} ${[...client.lastName][0] ?? ''}.`;
const pages = (total: number, pageSize: number) => Math.max(1, Math.ceil(total / pageSize));
/**
 * A review's words as the book page shows them: trimmed, one blank line at most between paragraphs
 * (the page keeps line breaks: a thousand of them stretched it), and none at all when nothing in them
 * is visible (zero-width characters alone were a review no one could read).
 */
const reviewText = (raw = '') => {
  const text = raw.trim().replace(/\n[^\S\n]*(?:\n[^\S\n]*)+\n/g, '\n\n');
  return /[\p{L}\p{N}\p{P}\p{S}]/u.test(text) ? text : '';
};

export function reviewService(repo: ReviewRepository, emit: EmitCatalogEvent) {
  /**
   * The book a copy belongs to, on sale or not (a client may rate what they bought and it since left
   * the shelves), or only while on sale (the storefront's reviews, as its book page).
   */
  async function bookOf(copyId: number, { onSale = false } = {}) {
    const bookId = await repo.bookOf(copyId, { onSale });
    if (bookId === null) throw refuse.bookUnavailable();
    return bookId;
  }

  return {
    /** A book's visible reviews, newest first, a page at a time; a copy off sale has no page, nor reviews. */
    async forBook(copyId: number, pageNumber: number, pageSize: number) {
      const bookId = await bookOf(copyId, { onSale: true });
      const [totalReviews, rows] = await repo.visibleForBook(bookId, (pageNumber - 1) * pageSize, pageSize);
      return {
        reviews: rows.map((r) => ({
          id: r.id,
          stars: r.stars,
          review: r.review,
          reviewer: reviewer(r.client),
          updatedAt: r.updatedAt.toISOString(),
        })),
        totalReviews,
        totalPages: pages(totalReviews, pageSize),
      };
    },

    /** The client's own rating of the copy's book, whether they may write one, and the name the storefront shows it by. */
    async mine(clientId: number, copyId: number) {
      const bookId = await bookOf(copyId);
      const [mine, canReview, client] = await Promise.all([
        repo.mine(bookId, clientId),
        repo.hasReceived(clientId, bookId),
        repo.reviewerOf(clientId),
      ]);
      return { canReview, stars: mine?.stars ?? 0, review: mine?.review ?? '', hidden: mine?.hiddenAt != null, reviewer: reviewer(client) };
    },

    /**
     * Rates the copy's book, or changes the rating; a hidden review stays hidden. When the book's
     * ratings moved (new stars, counted), the lists ordered by them hear of it.
     */
    async write(clientId: number, copyId: number, input: { stars: number; review?: string }) {
      const bookId = await bookOf(copyId);
      if (!(await repo.hasReceived(clientId, bookId))) throw refuse.reviewNotAllowed();
      const review = reviewText(input.review);
      const [before, client] = await Promise.all([repo.mine(bookId, clientId), repo.reviewerOf(clientId)]);
      // The same stars and words again are no change: the review keeps its place among the newest.
      if (before && before.stars === input.stars && before.review === review)
        return {
          canReview: true,
          stars: before.stars,
          review: before.review,
          hidden: before.hiddenAt !== null,
          reviewer: reviewer(client),
        };
      const saved = await repo.save(bookId, clientId, input.stars, review);
      if (saved.ratingsMoved) emit({ type: 'book.ratings-moved', bookId });
      // The client may rate (checked above), so the answer is the saved row: no second lookup of book and orders.
      return { canReview: true, stars: saved.stars, review: saved.review, hidden: saved.hiddenAt !== null, reviewer: reviewer(client) };
    },

    /** The back-office's list: every review, hidden ones too, newest first. */
    async list(pageNumber: number, pageSize: number) {
      const [total, rows] = await repo.all((pageNumber - 1) * pageSize, pageSize);
      return {
        reviews: rows.map((r) => ({
          id: r.id,
          bookId: r.bookId,
          bookName: r.book.name,
          clientId: r.clientId,
          reviewer: reviewer(r.client),
          stars: r.stars,
          review: r.review,
          updatedAt: r.updatedAt.toISOString(),
          hidden: r.hiddenAt !== null,
        })),
        totalPages: pages(total, pageSize),
      };
    },

    /**
     * Hides a review from the storefront (its stars leave the book's ratings), or shows it again. A
     * hidden review's words may change (its writer can still edit it), so it is shown only as the
     * Admin read it (`updatedAtRead`, the list's updatedAt): words changed since are refused (412), so
     * that none goes live unread. Hiding goes ahead whatever changed.
     */
    async setHidden(id: number, hidden: boolean, updatedAtRead: string) {
      const found = await repo.hiddenAt(id);
      if (!found) throw refuse.noReview();
      if ((found.hiddenAt !== null) === hidden) return;
      const read = new Date(updatedAtRead).getTime();
      // The schema's date-time takes a few that Date cannot read (a leap second, a bare hour offset).
      if (Number.isNaN(read)) throw badRequest("updatedAt must be the review's updatedAt as the list gave it.");
      if (!hidden && read !== found.updatedAt.getTime()) throw refuse.reviewChangedSinceRead();
      if (!(await repo.setHidden(id, hidden, hidden ? undefined : found.updatedAt))) {
        // Gone meanwhile (its client deleted), or rewritten since it was read just now.
        throw hidden || !(await repo.hiddenAt(id)) ? refuse.noReview() : refuse.reviewChangedSinceRead();
      }
      emit({ type: 'book.ratings-moved', bookId: found.bookId });
    },
  };
}

export type ReviewService = ReturnType<typeof reviewService>;
