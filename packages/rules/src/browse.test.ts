// A listing's state survives a round trip through the address, whatever it is, and an address the
// storefront does not understand still reads as a state (the server's first paint reads it too).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BROWSE_SORTS,
  type BrowseState,
  browseQuery,
  browseSearchParams,
  clampedPage,
  hasSearchWords,
  normalizedBrowseFilters,
  parseBrowseState,
  ratingAsShown,
  SEARCH_TEXT_MAX_LENGTH,
  searchTextOf,
  wantsSuggestions,
} from './browse.ts';
import { MAX_ROW_ID } from './forms.ts';

describe('the address', () => {
  it('round-trips any state: parse(serialize(state)) is the state, and the text is stable', () => {
    const state = fc.record(
      {
        sort: fc.constantFrom(...BROWSE_SORTS),
        priceMin: fc.integer({ min: 0, max: 100_000 }).map((c) => c / 100),
        priceMax: fc.integer({ min: 0, max: 100_000 }).map((c) => c / 100),
        inStock: fc.constant(true),
        minRating: fc.integer({ min: 0, max: 50 }).map((tenths) => tenths / 10),
        yearFrom: fc.integer({ min: 1, max: 9999 }),
        yearTo: fc.integer({ min: 1, max: 9999 }),
        authorId: fc.integer({ min: 1, max: MAX_ROW_ID }),
        page: fc.integer({ min: 2, max: 100_000 }),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(state, (s: BrowseState) => {
        const text = browseSearchParams(s, { q: 'harry' }).toString();
        const parsed = parseBrowseState(new URLSearchParams(text));
        expect(parsed).toEqual(s);
        expect(browseSearchParams(parsed, { q: 'harry' }).toString()).toBe(text);
      }),
    );
  });

  it('drops what it does not understand', () => {
    expect(parseBrowseState(new URLSearchParams('sort=random&priceMin=-1&minRating=9&yearFrom=1e3&page=1&inStock=yes'))).toEqual({});
  });

  it('keeps the first of a repeated parameter and drops markup, as a browser address bar may hand it over', () => {
    const params = new URLSearchParams('sort=newest&sort=price-asc&priceMax=%3Cscript%3E&authorId=7%22%3E&inStock=1&page=3');
    expect(parseBrowseState(params)).toEqual({ sort: 'newest', inStock: true, page: 3 });
  });

  it("makes the browse call's query: the page as pageNumber (1 when the address has none) with the size", () => {
    expect(browseQuery({ sort: 'newest', minRating: 4, page: 3 }, 15)).toEqual({
      sort: 'newest',
      minRating: 4,
      pageNumber: 3,
      pageSize: 15,
    });
    expect(browseQuery({}, 15)).toEqual({ pageNumber: 1, pageSize: 15 });
  });
});

describe('bounds in the precision they compare: prices in cents, ratings in tenths', () => {
  it('spells each bound one way, rounding a lowest bound up and a highest down, so the same rows are selected', () => {
    for (const spelling of ['10', '10.0', '10.001', '10.009']) {
      expect(parseBrowseState(new URLSearchParams(`priceMax=${spelling}`)), spelling).toEqual({ priceMax: 10 });
    }
    expect(parseBrowseState(new URLSearchParams('priceMin=9.991&minRating=3.5001'))).toEqual({ priceMin: 10, minRating: 3.6 });
    expect(parseBrowseState(new URLSearchParams('minRating=3.95'))).toEqual({ minRating: 4 });
    expect(normalizedBrowseFilters({ priceMin: 10.001, priceMax: 20.019, minRating: 4, inStock: true })).toEqual({
      priceMin: 10.01,
      priceMax: 20.01,
      minRating: 4,
      inStock: true,
    });
    // A lowest price past the highest the call takes, once in hundredths, is dropped rather than refused by the call.
    expect(parseBrowseState(new URLSearchParams('priceMin=99999999.001'))).toEqual({});
  });

  it('leaves any value already in its precision as it is, though its product by 100 or 10 is not exact', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9_999_999_999 }), fc.integer({ min: 0, max: 50 }), (cents, tenths) => {
        const price = cents / 100;
        const rating = tenths / 10;
        expect(normalizedBrowseFilters({ priceMin: price, priceMax: price, minRating: rating })).toEqual({
          priceMin: price,
          priceMax: price,
          minRating: rating,
        });
      }),
    );
  });
});

describe('a rating as shown', () => {
  it('is the average rounded once to one decimal, half up', () => {
    // 4.249 is 4.2 (rounding 4.25, its two decimals, again would say 4.3); 81/20 is 4.05 exactly, which
    // a float division puts just below, yet it shows 4.1.
    expect(ratingAsShown(4249, 1000)).toBe(4.2);
    expect(ratingAsShown(81, 20)).toBe(4.1);
    expect(ratingAsShown(79, 20)).toBe(4);
    expect(ratingAsShown(0, 0)).toBe(0);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000_000 }), fc.integer({ min: 0, max: 4_000_000 }), (count, extra) => {
        const sum = count + Math.min(extra, 4 * count);
        // The exact rounding, in integers: tenths = floor((20 * sum + count) / (2 * count)).
        const tenths = Math.floor((20 * sum + count) / (2 * count));
        expect(ratingAsShown(sum, count)).toBe(tenths / 10);
      }),
    );
  });
});

describe('a page past the end', () => {
  it('moves to the last page, or the first when nothing is listed, and leaves a page in range alone', () => {
    expect(clampedPage({ page: 99_999, sort: 'newest' }, 7)).toBe(7);
    expect(clampedPage({ page: 8 }, 7)).toBe(7);
    expect(clampedPage({ page: 7 }, 7)).toBeUndefined();
    expect(clampedPage({}, 7)).toBeUndefined();
    expect(clampedPage({ page: 3 }, 0)).toBe(1);
    expect(clampedPage({}, 0)).toBeUndefined();
  });
});

describe("a search's text", () => {
  it('is trimmed and cut to what the search call takes, never in the middle of a character', () => {
    expect(searchTextOf('  harry poter ')).toBe('harry poter');
    expect(searchTextOf('x'.repeat(500))).toBe('x'.repeat(SEARCH_TEXT_MAX_LENGTH));
    const cut = searchTextOf(`${'x'.repeat(SEARCH_TEXT_MAX_LENGTH - 1)}😀😀`);
    expect(cut).toBe('x'.repeat(SEARCH_TEXT_MAX_LENGTH - 1));
    expect(searchTextOf('   ')).toBe('');
  });
});

describe('a search text', () => {
  it('has something to look for when it has a letter or a digit, in any script', () => {
    for (const text of ['dune', 'García', '1984', 'Война', ' x ']) expect(hasSearchWords(text), text).toBe(true);
    for (const text of ['', '   ', '?', '!!!', '--', '\u{1F4DA}', '\u0301']) expect(hasSearchWords(text), JSON.stringify(text)).toBe(false);
  });

  it('is enough to suggest from at two letters or digits, punctuation and spaces not counted', () => {
    for (const text of ['du', 'é1', ' ab ']) expect(wantsSuggestions(text), text).toBe(true);
    for (const text of ['d', 'a.', ' b ', '!?']) expect(wantsSuggestions(text), text).toBe(false);
  });
});
