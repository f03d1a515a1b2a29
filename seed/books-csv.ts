// Reads seed/books.csv (see seed/README.md for its source and licence) into typed rows: the columns
// the seed uses (the file's average_rating is left: the counts of each star give the exact one).
import { parse } from 'csv-parse/sync';

export interface CsvBook {
  isbn13: string;
  title: string;
  /** The first of the listed authors: translators and illustrators may follow it. */
  mainAuthor: string;
  category: string;
  year: number | null;
  ratingsCount: number;
  /** Sum of stars over all ratings: with ratingsCount it gives the exact average. */
  ratingsSum: number;
  imageUrl: string | null;
}

export function parseBooksCsv(text: string): CsvBook[] {
  const rows = parse(text, { columns: true, skip_empty_lines: true, bom: true }) as Record<string, string>[];
  return rows.map((r) => {
    const stars = [1, 2, 3, 4, 5].map((n) => Number(r[`ratings_${n}`] || 0));
    return {
      isbn13: r.isbn13 ?? '',
      title: r.title ?? '',
      mainAuthor: (r.authors ?? '').split(', ')[0]?.trim() || 'Unknown author',
      category: r.category ?? '',
      year: r.year ? Number(r.year) : null,
      ratingsCount: stars.reduce((a, b) => a + b, 0),
      ratingsSum: stars.reduce((acc, count, i) => acc + count * (i + 1), 0),
      imageUrl: r.image_url || null,
    };
  });
}
