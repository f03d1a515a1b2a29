import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { clampPage, Paging } from './paging';

describe('Paging', () => {
  it("shows 'Page X of Y' and disables Prev on the first page and Next on the last, keeping the focus there", async () => {
    const onPage = vi.fn();
    const { rerender } = render(<Paging page={1} totalPages={3} onPage={onPage} />);
    expect(screen.getByText('Page 1 of 3')).toBeInTheDocument();
    const prev = screen.getByRole('button', { name: 'Prev' });
    expect(prev).toHaveAttribute('aria-disabled', 'true');
    await userEvent.click(prev);
    expect(onPage).not.toHaveBeenCalled();
    const next = screen.getByRole('button', { name: 'Next' });
    await userEvent.click(next);
    expect(onPage).toHaveBeenCalledWith(2);
    // The press that reaches the last page leaves the focus on Next, now at its end.
    rerender(<Paging page={3} totalPages={3} onPage={onPage} prevLabel="Previous" />);
    expect(next).toHaveAttribute('aria-disabled', 'true');
    expect(next).toHaveFocus();
    expect(screen.getByRole('button', { name: 'Previous' })).not.toHaveAttribute('aria-disabled');
  });

  it('clamps pages to 1..totalPages, with at least one page', () => {
    expect(clampPage(0, 5)).toBe(1);
    expect(clampPage(9, 5)).toBe(5);
    expect(clampPage(3, 0)).toBe(1);
    render(<Paging page={1} totalPages={0} onPage={() => {}} />);
    expect(screen.getByText('Page 1 of 1')).toBeInTheDocument();
  });

  it('moves back to the new last page when the list shrinks under the current one', () => {
    const onPage = vi.fn();
    const { rerender } = render(<Paging page={4} totalPages={4} onPage={onPage} />);
    expect(onPage).not.toHaveBeenCalled();
    // The last row of page 4 was deleted: the list now has 3 pages.
    rerender(<Paging page={4} totalPages={3} onPage={onPage} />);
    // A correction, not a choice: the address's entry is replaced, so Back does not return past the end.
    expect(onPage).toHaveBeenCalledWith(3, { replace: true });
  });

  it("keeps a page from the address while the total is not known yet, and says 'Page N' alone", () => {
    const onPage = vi.fn();
    const { rerender } = render(<Paging page={3} totalPages={undefined} onPage={onPage} />);
    expect(screen.getByText('Page 3')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next' })).toHaveAttribute('aria-disabled', 'true');
    expect(onPage).not.toHaveBeenCalled();
    rerender(<Paging page={3} totalPages={5} onPage={onPage} />);
    expect(screen.getByText('Page 3 of 5')).toBeInTheDocument();
    expect(onPage).not.toHaveBeenCalled();
  });
});
