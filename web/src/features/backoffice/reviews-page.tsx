import { BusyButton } from '../../components/busy-button';
import { DataTable } from '../../components/data-table';
import { Notice, useNotice } from '../../components/notice';
import { Paging } from '../../components/paging';
import { QueryView } from '../../components/query-view';
import { useDocumentTitle } from '../../lib/document-title';
import { failureReason } from '../../lib/failure-reason';
import { dateTime } from '../../lib/format';
import { usePageInAddress } from '../../lib/use-address-state';
import { useRunOncePer } from '../../lib/use-submit-once';
import { useReviewsPage } from './api/get-reviews';
import { useSetReviewHidden } from './api/set-review-hidden';

/**
 * /reviews (Admin, beyond the spec): buyers' reviews, newest first. Hide takes a review off the
 * storefront and its stars out of the book's average; Show puts it back. The audit log records both.
 */
export default function ReviewsPage() {
  useDocumentTitle('Reviews');
  const [page, setPage] = usePageInAddress();
  const reviews = useReviewsPage(page);
  const setHidden = useSetReviewHidden();
  const [notice, show] = useNotice();

  // One change a review at a time: a second click before the row is read again would send its old
  // state once more, and be refused as a change of a review since changed.
  const changing = useRunOncePer<number>();
  const toggle = (id: number, hidden: boolean, updatedAt: string) =>
    changing.run(id, () =>
      setHidden.mutateAsync({ id, hidden, updatedAt }).then(
        () => show(hidden ? 'Review hidden.' : 'Review shown again.'),
        (error) => show('The review could not be changed.', 'error', failureReason(error)),
      ),
    );

  return (
    <section>
      <h1>Reviews</h1>
      <Notice notice={notice} />
      <QueryView query={reviews} what="the reviews" empty={{ text: 'No reviews yet.', when: (data) => !data.reviews.length }}>
        {(data) => (
          <DataTable
            rows={data.reviews}
            columns={[
              { label: 'ID', cell: (r) => r.id },
              { label: 'Book', cell: (r) => r.bookName },
              {
                label: 'Reviewer',
                cell: (r) => (
                  <>
                    <bdi>{r.reviewer}</bdi> (client {r.clientId})
                  </>
                ),
              },
              { label: 'Stars', cell: (r) => r.stars },
              { label: 'Review', cell: (r) => r.review || '—' },
              { label: 'Updated At', cell: (r) => dateTime(r.updatedAt) },
              { label: 'Status', cell: (r) => (r.hidden ? 'Hidden' : 'Shown') },
              {
                label: 'Action',
                cell: (r) => (
                  <BusyButton
                    className={r.hidden ? undefined : 'danger'}
                    aria-label={`${r.hidden ? 'Show' : 'Hide'} review ${r.id}`}
                    busy={changing.busy(r.id)}
                    onClick={() => toggle(r.id, !r.hidden, r.updatedAt)}
                  >
                    {r.hidden ? 'Show' : 'Hide'}
                  </BusyButton>
                ),
              },
            ]}
          />
        )}
      </QueryView>
      <Paging page={page} totalPages={reviews.data?.totalPages} onPage={setPage} label="Review pages" />
    </section>
  );
}
