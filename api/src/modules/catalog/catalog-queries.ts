// The storefront's catalog reads, each one SQL statement that returns the rows of the answer itself
// (ids, order and every shown column), so a call costs one round trip to the database whatever its
// size. Plain SQL text with $n parameters: the repository runs it as a prepared statement on the pg
// pool (plugins/prisma.ts, catalogSql), and `npm run bench` runs the very same text in a bare
// Fastify + node-postgres server as its baseline, so the bench measures our stack's overhead and not
// a difference in SQL. Projections (category_listing, author_listing, home_list_candidates,
// search_shortcuts, search_vocabulary) give ids and order; price, stock and availability are always
// read live.

/** A card's columns (spec 3: id, name, imageUrl, authorName, price, quantity), and the author's id for a link to their page. */
const CARD_COLUMNS = `c.id, b.name, b.image_url AS "imageUrl", a.full_name AS "authorName", b.author_id AS "authorId", c.price, c.quantity`;
/** A detail's columns: a card's, plus category, description and the ratings. */
const DETAIL_COLUMNS = `${CARD_COLUMNS}, t.name AS category, b.description, b.ratings_count AS "ratingsCount", b.ratings_sum AS "ratingsSum"`;
const CARD_JOINS = 'JOIN books b ON b.id = c.book_id JOIN authors a ON a.id = b.author_id';
const DETAIL_JOINS = `${CARD_JOINS} JOIN book_types t ON t.id = b.type_id`;

import { escapeLike } from '../../lib/text.ts';

/** Numbers as node-postgres gives them (strings for numeric and bigint) or as Prisma does (Decimal, bigint). */
type Numeric = { toString(): string } | number | string;
export interface CardRow {
  id: number;
  name: string;
  imageUrl: string | null;
  authorName: string;
  authorId: number;
  price: Numeric;
  quantity: number;
}
export interface DetailRow extends CardRow {
  category: string;
  description: string | null;
  ratingsCount: number;
  ratingsSum: Numeric;
}

export const TYPES_SQL = 'SELECT id, name FROM book_types ORDER BY id';

/**
 * $1 category name (any letter case), $2 first position (exclusive), $3 last position. Always one
 * row more than the page: the first carries the category's id (null when there is none) and its
 * count (the last position), with a null card; the page's cards follow, in position order.
 */
export const CATEGORY_PAGE_SQL = `
  WITH category AS (SELECT id FROM book_types WHERE lower(name) = lower($1) LIMIT 1)
  SELECT (SELECT id FROM category) AS "typeId",
         (SELECT coalesce(max(l.position), 0) FROM category_listing l WHERE l.type_id = (SELECT id FROM category)) AS total,
         NULL::int AS id, NULL AS name, NULL AS "imageUrl", NULL AS "authorName", NULL::int AS "authorId", NULL::numeric AS price, NULL::int AS quantity,
         0 AS position
  UNION ALL
  (SELECT NULL, NULL, ${CARD_COLUMNS}, l.position
   FROM category_listing l JOIN book_copies c ON c.id = l.copy_id AND c.is_available ${CARD_JOINS}
   WHERE l.type_id = (SELECT id FROM category) AND l.position > $2 AND l.position <= $3
   ORDER BY l.position)
  ORDER BY position`;

/** $1 copy id: its detail, when available. */
export const DETAIL_SQL = `SELECT ${DETAIL_COLUMNS} FROM book_copies c ${DETAIL_JOINS} WHERE c.id = $1 AND c.is_available`;

/** An author ($1 id): their name and how many of their books are on sale (the last position of author_listing). */
export const AUTHOR_SQL = `
  SELECT a.id, a.full_name AS name,
         (SELECT coalesce(max(l.position), 0) FROM author_listing l WHERE l.author_id = a.id) AS "booksOnSale"
  FROM authors a WHERE a.id = $1`;
/**
 * $1 author id, $2 first position (exclusive), $3 last position: a page of their books on sale,
 * most-rated first. An index range of author_listing, so the busiest author's last page costs what
 * anyone's first does; a copy withdrawn since the last refresh is skipped by the live join.
 */
export const AUTHOR_BOOKS_SQL = `
  SELECT ${DETAIL_COLUMNS}
  FROM author_listing l JOIN book_copies c ON c.id = l.copy_id AND c.is_available ${DETAIL_JOINS}
  WHERE l.author_id = $1 AND l.position > $2 AND l.position <= $3
  ORDER BY l.position`;

/** A book's page ($1 copy id): the detail's columns and the ISBN, which its JSON-LD carries. */
export const BOOK_PAGE_SQL = `SELECT ${DETAIL_COLUMNS}, b.isbn13 AS isbn FROM book_copies c ${DETAIL_JOINS} WHERE c.id = $1 AND c.is_available`;
export interface BookPageRow extends DetailRow {
  isbn: string | null;
}

/**
 * The sitemap's book pages with copy ids in ($1, $2]: a range of the primary key, so each sitemap
 * file costs the same at any catalog size.
 */
export const SITEMAP_BOOKS_SQL = `
  SELECT c.id, b.name FROM book_copies c JOIN books b ON b.id = c.book_id
  WHERE c.is_available AND c.id > $1 AND c.id <= $2 ORDER BY c.id`;
/** The highest copy id, read from the primary key's end: how many sitemap files the catalog spans. */
export const LAST_COPY_ID_SQL = 'SELECT coalesce(max(id), 0) AS "lastId" FROM book_copies';

/** $1 list name, $2 size: a home list in its precomputed order, skipping copies withdrawn since. */
const homeListSql = (columns: string, joins: string) => `
  SELECT ${columns} FROM home_list_candidates h JOIN book_copies c ON c.id = h.copy_id AND c.is_available ${joins}
  WHERE h.list = $1 ORDER BY h.position LIMIT $2`;
export const HOME_CARDS_SQL = homeListSql(CARD_COLUMNS, CARD_JOINS);
export const HOME_DETAILS_SQL = homeListSql(DETAIL_COLUMNS, DETAIL_JOINS);

/**
 * $1 category ids and $2 how many each gives, $3 how many any other category gives, $4 the day,
 * $5 size. A varied pick: in each category, well-rated books (the pool precomputed in
 * home_list_candidates) in an order that changes daily.
 */
export const RECOMMENDED_SQL = `
  WITH quota AS (SELECT unnest($1::int[]) AS type_id, unnest($2::int[]) AS n),
  ranked AS (
    SELECT c.id, h.type_id, row_number() OVER (PARTITION BY h.type_id ORDER BY md5($4 || c.id::text)) AS rank
    FROM home_list_candidates h
    JOIN book_copies c ON c.id = h.copy_id AND c.is_available AND c.quantity > 0
    WHERE h.list = 'recommended'
  ),
  picked AS (
    SELECT r.id FROM ranked r LEFT JOIN quota q ON q.type_id = r.type_id
    WHERE r.rank <= coalesce(q.n, $3::int)
    ORDER BY md5($4 || 'order' || r.id::text)
    LIMIT $5
  )
  SELECT ${DETAIL_COLUMNS} FROM picked p JOIN book_copies c ON c.id = p.id ${DETAIL_JOINS}
  ORDER BY md5($4 || 'order' || c.id::text)`;

/**
 * $1 the shortcut term, $2 short words each result must have a word starting with, $3 the longer
 * words, $4 the whole text as a LIKE pattern, $5 size, $6 whether a missing shortcut means no results.
 *
 * A term with a shortcut (a one- or two-letter prefix, or a common word alone) reads the most-rated
 * books holding it; an index cannot rank those matches fast enough (docs/decisions/0007). Any other
 * text is searched by words (docs/decisions/0008): each longer word must match a word of the book,
 * that is the word itself, or one of four catalog words it begins or, when it is no catalog word,
 * the closest spellings in the catalog's vocabulary ("poter": "potter"), which forgives a typo. Results
 * rank by the whole text as a phrase, then how many words matched as typed (or as their likeliest
 * spelling), then ratings. The word branch runs only when there is no shortcut (a one-time filter).
 */
export interface SearchTerms {
  /** The word looked up in the shortcuts ('' for none). */
  shortcut: string;
  /** One- and two-letter words: each result must also have a word starting with each. */
  others: string[];
  /** The words of three letters or more that the word search matches (at most SEARCH_MAX_WORDS). */
  words: string[];
  normalized: string;
  /** No word search when the shortcut is missing: all words are too short for one. */
  shortcutOnly: boolean;
}

/** Every word is one condition on the words index; beyond this many the rest only rank as the phrase. */
export const SEARCH_MAX_WORDS = 6;

export const searchValues = (terms: SearchTerms, take: number) => [
  terms.shortcut,
  terms.others,
  terms.words,
  `%${escapeLike(terms.normalized)}%`,
  take,
  terms.shortcutOnly,
];

const BOOK_WORDS = "string_to_array(b.search_text, ' ')";
const bySpellings = (wordCount: number, column: 'spellings' | 'likeliest') =>
  Array.from({ length: wordCount }, (_, i) => `${BOOK_WORDS} && (SELECT ${column} FROM word_spellings WHERE ord = ${i + 1})`);

/** The search's common table expressions, ending with `hits` (copy ids and their ranks); browse-queries.ts reads them too. */
const buildSearchCtes = (wordCount: number) => `
  WITH shortcut AS (SELECT book_ids FROM search_shortcuts WHERE term = $1),
  by_shortcut AS (
    SELECT c.id, u.rank::float8 AS rank1, 0::float8 AS rank2, 0 AS rank3
    FROM shortcut s CROSS JOIN LATERAL unnest(s.book_ids) WITH ORDINALITY AS u(book_id, rank)
    JOIN books b ON b.id = u.book_id
    JOIN book_copies c ON c.book_id = b.id AND c.is_available
    WHERE NOT EXISTS (SELECT 1 FROM unnest($2::text[]) o WHERE position(' ' || o IN ' ' || b.search_text) = 0)
    ORDER BY u.rank, c.id
    LIMIT $5
  ),
  query_words AS (
    SELECT q.word, q.ord, EXISTS (SELECT 1 FROM search_vocabulary v WHERE v.word = q.word) AS known
    FROM unnest($3::text[]) WITH ORDINALITY AS q(word, ord)
    WHERE NOT $6::boolean AND NOT EXISTS (SELECT 1 FROM shortcut)
  ),
  spellings AS (
    SELECT q.ord, q.word, 0::bigint AS choice, q.known FROM query_words q
    UNION ALL
    SELECT q.ord, v.word, row_number() OVER (PARTITION BY q.ord ORDER BY v.prefix DESC, v.closeness DESC, v.books DESC), true
    FROM query_words q CROSS JOIN LATERAL (
      SELECT v.word, v.books, v.word LIKE q.word || '%' AS prefix, similarity(v.word, q.word) AS closeness
      FROM search_vocabulary v
      WHERE v.word <> q.word
        AND (v.word LIKE q.word || '%' OR (NOT q.known AND v.word % q.word AND similarity(v.word, q.word) >= 0.3))
      ORDER BY 3 DESC, 4 DESC, 2 DESC
      LIMIT 4
    ) v
  ),
  word_spellings AS (
    SELECT ord, array_agg(word) AS spellings, ARRAY[(array_agg(word ORDER BY known DESC, choice))[1]] AS likeliest
    FROM spellings GROUP BY ord
  ),
  matches AS (
    SELECT b.id AS book_id, -(b.search_text LIKE $4)::int AS rank1,
           -(${
             wordCount
               ? bySpellings(wordCount, 'likeliest')
                   .map((c) => `(${c})::int`)
                   .join(' + ')
               : '0'
           }) AS rank2,
           -b.ratings_count AS rank3
    FROM books b
    WHERE ${wordCount ? bySpellings(wordCount, 'spellings').join(' AND ') : 'false'}
      AND NOT EXISTS (SELECT 1 FROM unnest($2::text[]) o WHERE position(' ' || o IN ' ' || b.search_text) = 0)
    ORDER BY 2, 3, 4, 1
  ),
  by_words AS (
    SELECT c.id, m.rank1::float8, m.rank2::float8, m.rank3
    FROM matches m CROSS JOIN LATERAL (SELECT c.id FROM book_copies c WHERE c.book_id = m.book_id AND c.is_available) c
    ORDER BY m.rank1, m.rank2, m.rank3, c.id
    LIMIT $5
  ),
  hits AS (SELECT * FROM by_shortcut UNION ALL SELECT * FROM by_words)`;
const buildSearchSql = (wordCount: number) => `${buildSearchCtes(wordCount)}
  SELECT ${DETAIL_COLUMNS} FROM hits h JOIN book_copies c ON c.id = h.id ${DETAIL_JOINS}
  ORDER BY h.rank1, h.rank2, h.rank3, h.id`;

const SEARCH_CTES_BY_WORD_COUNT = Array.from({ length: SEARCH_MAX_WORDS + 1 }, (_, n) => buildSearchCtes(n));
/** The search's CTEs for these terms (values: searchValues), ending with `hits`. */
export const searchCtes = (terms: SearchTerms) => SEARCH_CTES_BY_WORD_COUNT[terms.words.length]!;
const SEARCH_SQL_BY_WORD_COUNT = Array.from({ length: SEARCH_MAX_WORDS + 1 }, (_, n) => buildSearchSql(n));
/** The search statement for these terms: one per number of words, each a prepared statement. */
export const searchSql = (terms: SearchTerms) => SEARCH_SQL_BY_WORD_COUNT[terms.words.length]!;

/**
 * Categories a client has bought from in their last RECOMMENDED_FROM_ORDERS orders, most units first
 * ($1 client id): their present tastes, and a read that stays small for a client of thousands of
 * orders (a bookseller buying for a school: 260 ms a home page when every order was summed). An order
 * cancelled or failed bought nothing, and is not one of them.
 */
const RECOMMENDED_FROM_ORDERS = 100;
export const PURCHASED_CATEGORIES_SQL = `
  WITH recent AS (SELECT id FROM orders WHERE client_id = $1 AND status NOT IN ('cancelled', 'failed')
                  ORDER BY created_at DESC LIMIT ${RECOMMENDED_FROM_ORDERS})
  SELECT b.type_id AS "typeId" FROM recent o JOIN order_items oi ON oi.order_id = o.id
  JOIN book_copies c ON c.id = oi.book_copy_id JOIN books b ON b.id = c.book_id
  GROUP BY b.type_id ORDER BY sum(oi.quantity) DESC LIMIT 3`;
