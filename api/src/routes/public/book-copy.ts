import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { CACHED_READS } from '../../modules/catalog/cached-reads.ts';
import { PageSize, PositiveInt, responses } from '../../schemas/common.ts';
import { documentRoutes } from '../document-routes.ts';

const CardList = Type.Array(Type.Ref('BookCard'));
const DetailList = Type.Array(Type.Ref('BookDetail'));

const bookCopyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  documentRoutes(app, { tags: ['Public catalog'] });
  // Reads only: served by the read replica when DATABASE_REPLICA_URL is set. Each answer that is the
  // same for everyone is kept by the catalog cache until the catalog changes (plugins/catalog-cache.ts).
  // These answers take their books and order from the projections and read live only the stock they
  // show (and, for Recommended, whether a copy is in stock at all, which only a sell-out changes): a
  // checkout forgets only the answers that show a copy it sold from.
  const cached = app.catalogCache.read;

  // Catalog reads are the same for everyone for a minute; the ETag lets a browser revalidate cheaply.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.method === 'GET' && reply.statusCode === 200 && !reply.hasHeader('cache-control')) {
      reply.header('cache-control', 'public, max-age=60');
    }
    done(null, payload);
  });

  app.get(
    '/types/',
    {
      schema: { operationId: 'listBookTypes', summary: 'The ten categories', response: responses(Type.Array(Type.Ref('BookType'))) },
    },
    async () => ({ data: await cached('types', app.catalog.types, CACHED_READS.types) }),
  );

  app.get(
    '/by-type/:type,:pageNumber,:pageSize',
    {
      schema: {
        operationId: 'listBookCopiesByType',
        summary: 'A page of a category (any letter case)',
        params: Type.Object({ type: Type.String({ minLength: 1, maxLength: 100 }), pageNumber: PositiveInt, pageSize: PageSize }),
        response: responses(Type.Object({ booksCopies: CardList, totalPages: Type.Integer() }), 400, 404),
      },
    },
    async (request) => {
      const { type, pageNumber, pageSize } = request.params;
      return {
        data: await cached(
          `by-type ${type} ${pageNumber} ${pageSize}`,
          () => app.catalog.byType(type, pageNumber, pageSize),
          CACHED_READS.categoryPage,
        ),
      };
    },
  );

  app.get(
    '/by-id/:id',
    {
      schema: {
        operationId: 'getBookCopy',
        summary: 'Details of one available book copy',
        params: Type.Object({ id: PositiveInt }),
        response: responses(Type.Ref('BookDetail'), 400, 404),
      },
    },
    async (request, reply) => {
      // The detail shows live stock: always revalidate (the ETag makes that a cheap 304).
      reply.header('cache-control', 'no-cache');
      return { data: await cached(`by-id ${request.params.id}`, () => app.catalog.byId(request.params.id), CACHED_READS.bookDetail) };
    },
  );

  app.get(
    '/by-name/:name',
    {
      schema: {
        operationId: 'searchBookCopies',
        summary: 'Search titles and authors (typo-tolerant, at most 50 results)',
        params: Type.Object({ name: Type.String({ minLength: 1, maxLength: 200 }) }),
        response: responses(DetailList, 400),
      },
    },
    async (request) => ({
      data: await cached(`by-name ${request.params.name}`, () => app.catalog.search(request.params.name), CACHED_READS.search),
    }),
  );

  const list = (
    path: string,
    operationId: string,
    summary: string,
    item: typeof CardList | typeof DetailList,
    load: () => Promise<unknown>,
  ) =>
    app.get(path, { schema: { operationId, summary, response: responses(item) } }, async () => ({
      data: (await cached(path, load, CACHED_READS.homeList)) as never,
    }));

  list('/new-releases/', 'listNewReleases', 'Most recently published', CardList, app.catalog.newReleases);
  list('/best-sellers/', 'listBestSellers', 'Most units sold', CardList, app.catalog.bestSellers);
  list('/top-rated/', 'listTopRated', 'Highest average among books with 10,000+ ratings', DetailList, app.catalog.topRated);

  app.get(
    '/recommended/',
    {
      schema: {
        operationId: 'listRecommended',
        summary: "A varied pick of well-rated books, leaning to a signed-in client's categories",
        response: responses(DetailList),
      },
    },
    async (request, reply) => {
      let clientId: number | null = null;
      const access = app.sessionCookie(request, 'client', 'access');
      if (access) {
        clientId = await app.sessions.authenticate('client', access).then(
          (c) => c.subjectId,
          () => null,
        );
      }
      // Personal when signed in, so no shared cache may keep it.
      reply.header('cache-control', 'private, max-age=60').header('vary', 'cookie');
      // The signed-out pick is everyone's; a client's own is not kept.
      return {
        data:
          clientId === null
            ? await cached('recommended', () => app.catalog.recommended(null), CACHED_READS.homeList)
            : await app.catalog.recommended(clientId),
      };
    },
  );
};

export default bookCopyRoutes;
