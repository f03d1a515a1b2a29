import { SEARCH_TEXT_MAX_LENGTH } from '@bookshop/rules/browse';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { browseCategoryListing, browseSearchListing } from '../../modules/catalog/browse-listings.ts';
import { BROWSE_FACET_SAMPLE, BROWSE_MAX_RESULTS, BROWSE_SORTS, SEARCH_CANDIDATES } from '../../modules/catalog/browse-queries.ts';
import { CACHED_READS } from '../../modules/catalog/cached-reads.ts';
import { PageSize, PositiveInt, responses } from '../../schemas/common.ts';
import { documentRoutes } from '../document-routes.ts';

const Money = Type.Number({ minimum: 0, maximum: 99_999_999 });
const Year = Type.Integer({ minimum: 1, maximum: 9999 });

/** The sort and filters of a listing, all optional (beyond the spec). */
const Browsing = {
  pageNumber: Type.Optional(PositiveInt),
  pageSize: Type.Optional(PageSize),
  sort: Type.Optional(
    Type.Union(
      BROWSE_SORTS.map((s) => Type.Literal(s)),
      {
        description:
          "'relevance' (a search's best match first; a category's most-rated first, its default order), 'bestselling', 'top-rated', 'newest', 'price-asc' or 'price-desc'",
      },
    ),
  ),
  priceMin: Type.Optional(Money),
  priceMax: Type.Optional(Money),
  inStock: Type.Optional(Type.Boolean({ description: 'Only copies in stock' })),
  minRating: Type.Optional(
    Type.Number({ minimum: 0, maximum: 5, description: 'Lowest average rating, as shown (one decimal; more decimals round up)' }),
  ),
  yearFrom: Type.Optional(Year),
  yearTo: Type.Optional(Year),
  authorId: Type.Optional(PositiveInt),
};
const BrowseQuery = Type.Object(Browsing, { additionalProperties: false });
const SearchQuery = Type.Object(
  { text: Type.String({ minLength: 1, maxLength: SEARCH_TEXT_MAX_LENGTH }), ...Browsing },
  { additionalProperties: false },
);

const Count = Type.Integer({ minimum: 0 });
const BrowsePage = Type.Object(
  {
    booksCopies: Type.Array(Type.Ref('BookDetail')),
    pageNumber: Type.Integer(),
    total: Type.Integer({
      description: `How many books pass the filters; only the first ${BROWSE_MAX_RESULTS.toLocaleString('en')} are paged`,
    }),
    totalEstimated: Type.Boolean({
      description: `The total is an estimate, scaled from a uniform sample of ${BROWSE_FACET_SAMPLE.toLocaleString('en')} copies (a category, or a chosen author's books in it, with more); never below what the pages shown prove`,
    }),
    totalPages: Type.Integer(),
    facets: Type.Object(
      {
        estimated: Type.Boolean({
          description: `The counts are scaled from a uniform sample of ${BROWSE_FACET_SAMPLE.toLocaleString('en')} copies, as the total is; else exact`,
        }),
        price: Type.Array(
          Type.Object({ min: Type.Union([Type.Number(), Type.Null()]), max: Type.Union([Type.Number(), Type.Null()]), count: Count }),
        ),
        rating: Type.Array(Type.Object({ min: Type.Number(), count: Count })),
        year: Type.Array(
          Type.Object({ from: Type.Union([Type.Integer(), Type.Null()]), to: Type.Union([Type.Integer(), Type.Null()]), count: Count }),
        ),
        inStock: Count,
        authors: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String(), count: Count })),
      },
      { description: "How many books each value would leave, under the other dimensions' filters" },
    ),
  },
  { title: 'BrowsePage' },
);
const Suggestions = Type.Object(
  {
    authors: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String() })),
    books: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String(), authorName: Type.String() })),
  },
  { title: 'Suggestions' },
);

/**
 * Finding a book as shoppers do (beyond the spec; the spec's category and search routes are unchanged):
 * a category page or a search's results in any sort and filters, with the total and facet counts, and
 * suggestions as one types. Everyone's answers are the same, so the catalog cache keeps them, keyed
 * by every parameter.
 */
const browseRoutes: FastifyPluginAsyncTypebox = async (app) => {
  documentRoutes(app, { tags: ['Public catalog'] });
  const cached = app.catalogCache.read;
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.method === 'GET' && reply.statusCode === 200) reply.header('cache-control', 'public, max-age=60');
    done(null, payload);
  });

  app.get(
    '/browse/:type',
    {
      schema: {
        operationId: 'browseCategory',
        summary: 'A page of a category in any sort and filters, with the total and facet counts (beyond the spec)',
        params: Type.Object({ type: Type.String({ minLength: 1, maxLength: 100 }) }),
        querystring: BrowseQuery,
        response: responses(BrowsePage, 400, 404),
      },
    },
    async (request) => {
      return { data: await browseCategoryListing(app, request.params.type, request.query) };
    },
  );

  app.get(
    '/search/',
    {
      schema: {
        operationId: 'browseSearch',
        summary: `The best ${SEARCH_CANDIDATES} search results, paged, in any sort and filters, with the total and facet counts (beyond the spec)`,
        querystring: SearchQuery,
        response: responses(BrowsePage, 400),
      },
    },
    async (request) => {
      return { data: await browseSearchListing(app, request.query.text, request.query) };
    },
  );

  app.get(
    '/suggestions/',
    {
      schema: {
        operationId: 'suggest',
        summary: 'Authors and books whose name begins with the text, at most 8, from 2 letters on (beyond the spec)',
        querystring: Type.Object({ text: Type.String({ maxLength: 200 }) }, { additionalProperties: false }),
        response: responses(Suggestions, 400),
      },
    },
    async (request) => ({
      data: await cached(`suggest ${request.query.text}`, () => app.catalog.suggest(request.query.text), CACHED_READS.suggestions),
    }),
  );
};

export default browseRoutes;
