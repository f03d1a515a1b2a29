// The pages' addresses: readable, stable for any title or name, and read back to the same id.
import { describe, expect, it } from 'vitest';
import { authorPagePath, bookPagePath, idFromPageAddress, slugify } from './page-addresses.ts';

describe('bookPagePath', () => {
  it('joins the id and the title as lower-case words', () => {
    expect(bookPagePath(42, 'The Hobbit, or There and Back Again')).toBe('/books/42-the-hobbit-or-there-and-back-again');
  });

  it('drops accents and keeps digits', () => {
    expect(bookPagePath(7, 'Les Misérables — Tome 2')).toBe('/books/7-les-miserables-tome-2');
  });

  it('gives just the id to a title with nothing to spell in a URL', () => {
    expect(bookPagePath(9, 'ثلاثية غرناطة')).toBe('/books/9');
    expect(bookPagePath(9, '!!!')).toBe('/books/9');
  });

  it('keeps a long title to 80 characters that do not end in a separator', () => {
    const slug = slugify(`${'word '.repeat(40)}end`);
    expect(slug.length).toBeLessThanOrEqual(80);
    expect(slug).not.toMatch(/-$/);
  });
});

it('authorPagePath spells an author the same way, under /authors', () => {
  expect(authorPagePath(3, 'J.R.R. Tolkien')).toBe('/authors/3-j-r-r-tolkien');
  expect(authorPagePath(4, 'Gabriel García Márquez')).toBe('/authors/4-gabriel-garcia-marquez');
});

describe('idFromPageAddress', () => {
  it('reads the id of a canonical, an outdated or a bare address', () => {
    expect(idFromPageAddress('42-the-hobbit')).toBe(42);
    expect(idFromPageAddress('42-an-old-title')).toBe(42);
    expect(idFromPageAddress('42')).toBe(42);
  });

  it('names no book for anything else', () => {
    for (const segment of ['', 'hobbit', '0', '042-x', '42x', '-42', '1234567890', '4.2']) expect(idFromPageAddress(segment)).toBeNull();
  });

  it('reads back the id of every address it writes', () => {
    for (const [id, name] of [
      [1, 'A'],
      [123456789, 'Dune'],
      [5, ''],
    ] as const)
      expect(idFromPageAddress(bookPagePath(id, name).slice(7))).toBe(id);
  });
});
