import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { BookCover } from './book-cover';

describe('BookCover', () => {
  it('upgrades an http cover to https', () => {
    render(<BookCover src="http://images.example/cover.jpg" title="Dune" />);
    expect(screen.getByRole('img', { name: 'Cover of Dune' })).toHaveAttribute('src', 'https://images.example/cover.jpg');
  });

  it('draws a cover with the title when there is no image or it fails to load', () => {
    const { rerender } = render(<BookCover src={null} title="The Hobbit" author="J.R.R. Tolkien" />);
    expect(screen.getByRole('img', { name: 'Cover of The Hobbit' })).toHaveTextContent('The HobbitJ.R.R. Tolkien');
    rerender(<BookCover src="data:image/svg+xml;charset=utf-8,%3Csvg%3E%3C%2Fsvg%3E" title="Persuasion" />);
    expect(screen.getByRole('img', { name: 'Cover of Persuasion' }).tagName).toBe('DIV');
    rerender(<BookCover src="https://broken.example/x.jpg" title="Emma" />);
    fireEvent.error(screen.getByRole('img', { name: 'Cover of Emma' }));
    expect(screen.getByRole('img', { name: 'Cover of Emma' }).tagName).toBe('DIV');
  });
});
