// A book's reviews by its buyers (beyond the spec), under its detail: the newest first, paged, and
// for a signed-in client who received the book, their own rating to write or change.
import { REVIEW_MAX_LENGTH } from '@bookshop/rules';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { Schemas } from '../../../api/types';
import { SubmitButton } from '../../../components/busy-button';
import { LoadError } from '../../../components/load-error';
import { Notice, useNotice } from '../../../components/notice';
import { Paging } from '../../../components/paging';
import { useDescribedFields } from '../../../lib/described-fields';
import { failureReason } from '../../../lib/failure-reason';
import { dateTime } from '../../../lib/format';
import { useSession } from '../../../lib/session';
import { useMyReview } from '../api/get-my-review';
import { useReviews } from '../api/get-reviews';
import { useWriteReview } from '../api/write-review';

/** The review form's longest text, as the API takes it. */
const STARS = [1, 2, 3, 4, 5] as const;

function Stars({ stars }: { stars: number }) {
  return (
    <span className="stars" role="img" aria-label={`${stars} out of 5 stars`}>
      {'★'.repeat(stars)}
      {'☆'.repeat(5 - stars)}
    </span>
  );
}

type Fields = { stars: string; review: string };
const CHOOSE_STARS = 'Please choose from 1 to 5 stars.';

/** The form, rendered once the client's rating has loaded, with it as the starting values. */
function MyReviewForm({ copyId, mine }: { copyId: number; mine: Schemas['MyReview'] }) {
  const write = useWriteReview(copyId);
  const [notice, show] = useNotice();
  const form = useForm<Fields>({
    defaultValues: { stars: mine.stars ? String(mine.stars) : '', review: mine.review },
  });
  const { handleSubmit, formState, reset } = form;
  const { field, errorTexts } = useDescribedFields(form, (name) => (name === 'stars' ? { required: CHOOSE_STARS } : undefined));
  const submit = handleSubmit(
    async ({ stars, review }) => {
      try {
        const saved = await write.mutateAsync({ stars: Number(stars), review });
        // What was saved is the form's new starting point: Update stays off until something changes.
        reset({ stars: String(saved.stars), review: saved.review });
        show('Thank you! Your rating is saved.');
      } catch (error) {
        show('Your rating could not be saved.', 'error', failureReason(error));
      }
    },
    () => show(CHOOSE_STARS, 'error'),
  );
  return (
    <form className="review-form" onSubmit={submit} noValidate>
      <fieldset>
        <legend>{mine.stars ? 'Your rating' : 'Rate this book'}</legend>
        <div className="star-choice">
          {STARS.map((n) => (
            <label key={n}>
              <input type="radio" value={String(n)} {...field('stars')} />
              <span aria-hidden="true">{'★'.repeat(n)}</span>
              <span className="sr-only">
                {n} {n === 1 ? 'star' : 'stars'}
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <label>
        Your review (optional)
        <textarea rows={3} maxLength={REVIEW_MAX_LENGTH} {...field('review', `shown-as-${copyId}`)} />
      </label>
      {/* A review says its writer bought the book: they are told the name it goes by before they write. */}
      <p className="muted" id={`shown-as-${copyId}`}>
        <bdi>{mine.reviewer}</bdi> is the name other shoppers see on your rating and review.
      </p>
      {mine.hidden && <p className="muted">An Admin has hidden your review from the shop.</p>}
      <Notice notice={notice} />
      {errorTexts}
      <SubmitButton busy={write.isPending} notReady={!formState.isDirty}>
        {mine.stars ? 'Update rating' : 'Save rating'}
      </SubmitButton>
    </form>
  );
}

function MyReview({ copyId }: { copyId: number }) {
  const { data: mine } = useMyReview(copyId);
  if (!mine) return null;
  if (!mine.canReview) return <p className="muted">You can rate this book once an order of it has shipped.</p>;
  return <MyReviewForm copyId={copyId} mine={mine} />;
}

export function BookReviews({ copyId }: { copyId: number }) {
  const { loggedIn } = useSession();
  const [page, setPage] = useState(1);
  const { data, isError, error, refetch, isPlaceholderData } = useReviews(copyId, page);
  return (
    <section className="reviews" aria-labelledby="reviews-heading">
      <h2 id="reviews-heading">Reviews</h2>
      {loggedIn && <MyReview copyId={copyId} />}
      {isError && <LoadError what="the reviews" error={error} onRetry={() => void refetch()} />}
      {data && data.reviews.length === 0 && <p className="muted">No reviews yet.</p>}
      {data && data.reviews.length > 0 && (
        <>
          <ul className="review-list" aria-busy={isPlaceholderData}>
            {data.reviews.map((review) => (
              <li key={review.id}>
                <p>
                  {/* bdi: a name written with direction controls cannot reorder the date beside it. */}
                  <Stars stars={review.stars} />{' '}
                  <strong>
                    <bdi>{review.reviewer}</bdi>
                  </strong>{' '}
                  <span className="muted">{dateTime(review.updatedAt)}</span>
                </p>
                {review.review && <p className="review-text">{review.review}</p>}
              </li>
            ))}
          </ul>
          {data.totalPages > 1 && <Paging page={page} totalPages={data.totalPages} onPage={setPage} label="Review pages" />}
        </>
      )}
    </section>
  );
}
