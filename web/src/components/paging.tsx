import { useEffect } from 'react';
import { BusyButton } from './busy-button';

/**
 * Prev / Next with 'Page X of Y'; the page is always clamped to 1..totalPages (spec 2.5), also when
 * the list shrinks under it (the last row of the last page deleted): the list then moves back a page.
 * `totalPages` undefined: not known yet (the first answer is on its way), and a page from the address
 * (a reload of page 3) is kept until it is, not clamped to a first page's default.
 */
export function Paging({
  page,
  totalPages,
  onPage,
  prevLabel = 'Prev',
  label = 'Pages',
}: {
  page: number;
  totalPages: number | undefined;
  /** `replace`: the page is corrected (clamped), not chosen: Back should not return to the page past the end. */
  onPage: (page: number, change?: { replace?: boolean }) => void;
  prevLabel?: string;
  /** The navigation's name; a screen with two paged lists names each (landmarks must differ). */
  label?: string;
}) {
  const last = Math.max(1, totalPages ?? page);
  const go = (p: number) => onPage(Math.min(Math.max(1, p), last));
  useEffect(() => {
    if (totalPages !== undefined && page > last) onPage(last, { replace: true });
  }, [page, last, totalPages, onPage]);
  // At an end, Prev or Next is aria-disabled rather than disabled: the press that reached the last
  // page leaves the focus on Next, where a disabled button would drop it to the page's start.
  return (
    <nav className="paging" aria-label={label}>
      <BusyButton busy={false} atLimit={page <= 1} onClick={() => go(page - 1)}>
        {prevLabel}
      </BusyButton>
      <span>{totalPages === undefined ? `Page ${page}` : `Page ${Math.min(page, last)} of ${last}`}</span>
      <BusyButton busy={false} atLimit={page >= last} onClick={() => go(page + 1)}>
        Next
      </BusyButton>
    </nav>
  );
}

export const clampPage = (page: number, totalPages: number) => Math.min(Math.max(1, page), Math.max(1, totalPages));
