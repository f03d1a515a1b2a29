import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { IfMatchHeader } from '../../schemas/backoffice-catalog.ts';
import { PositiveInt, responses } from '../../schemas/common.ts';
import { documentRoutes } from '../document-routes.ts';
import { deleteByIdRoute, getByIdRoute, pagedListRoute, tagVersion, versionRead } from './schemas.ts';

const Name = Type.String({ maxLength: 300 });

const authorRoutes: FastifyPluginAsyncTypebox = async (app) => {
  documentRoutes(app, { tags: ['Back-office authors'] });
  pagedListRoute(
    app,
    ['listAuthors', 'A page of authors', '/employee/author/:pageNumber,:pageSize'],
    { authors: 'Author' },
    app.catalogAdmin.authorPage,
  );

  app.post(
    '/employee/author/:name',
    {
      schema: {
        operationId: 'addAuthor',
        summary: 'Add an author by full name',
        params: Type.Object({ name: Name }),
        response: responses(Type.Ref('Author'), 400, 401, 403, 409),
      },
    },
    async (request) => ({ data: await app.catalogAdmin.addAuthor(request.params.name) }),
  );

  app.put(
    '/employee/author/:id,:name',
    {
      schema: {
        operationId: 'renameAuthor',
        summary: 'Rename an author',
        description:
          'Send the ETag of the author as read (If-Match) and an author renamed since is refused with 412, the author now in `error.details.current`. ' +
          "Without If-Match the name is written as it is (the spec's own client).",
        headers: IfMatchHeader,
        params: Type.Object({ id: PositiveInt, name: Name }),
        response: responses(Type.Ref('Author'), 400, 401, 403, 404, 409, 412),
      },
    },
    async (request, reply) => ({
      data: tagVersion(reply, await app.catalogAdmin.renameAuthor(request.params.id, request.params.name, versionRead(request))),
    }),
  );

  getByIdRoute(app, ['getAuthor', 'One author', '/employee/author/by-id/:id'], 'Author', app.catalogAdmin.authorById);

  app.get(
    '/employee/author/by-name/:name',
    {
      schema: {
        operationId: 'findAuthorsByName',
        summary: 'Authors whose name contains the text (at most 50)',
        params: Type.Object({ name: Name }),
        response: responses(Type.Array(Type.Ref('Author')), 400, 401, 403),
      },
    },
    async (request) => ({ data: await app.catalogAdmin.authorsByName(request.params.name) }),
  );

  // The spec lists the delete as `DELETE /author/{id}`; both that path and the /employee one work.
  for (const [url, operationId] of [
    ['/employee/author/:id', 'deleteAuthor'],
    ['/author/:id', 'deleteAuthorLegacyPath'],
  ] as const) {
    deleteByIdRoute(
      app,
      [operationId, 'Delete an author who has no books', url],
      [404, 409],
      (id, request) => app.catalogAdmin.deleteAuthor(id, versionRead(request)),
      {
        versioned: true,
        description:
          'Send the ETag of the author as read (If-Match) and an author renamed since is refused with 412, the author now in `error.details.current`. ' +
          "Without If-Match the author is deleted as they are (the spec's own client).",
      },
    );
  }
};

export default authorRoutes;
