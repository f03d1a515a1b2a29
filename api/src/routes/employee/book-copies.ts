import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { refuse } from '../../lib/refusals.ts';
import { CopyBody, CopyFields, IfMatchHeader, readVersion, versionTag } from '../../schemas/backoffice-catalog.ts';
import { Body, PositiveInt, responses } from '../../schemas/common.ts';
import { documentRoutes } from '../document-routes.ts';
import { deleteByIdRoute, pagedListRoute } from './schemas.ts';

const bookCopyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  documentRoutes(app, { tags: ['Back-office book copies'] });
  pagedListRoute(app, ['listBookCopiesAdmin', 'A page of book copies'], { booksCopies: 'BookCopyAdmin' }, app.catalogAdmin.copyPage);

  app.post(
    '/',
    {
      schema: {
        operationId: 'addBookCopy',
        summary: 'Add a sellable copy of a book',
        body: CopyBody,
        response: responses(Type.Ref('BookCopyAdmin'), 400, 401, 403),
      },
    },
    async (request) => ({ data: await app.catalogAdmin.addCopy(request.body) }),
  );

  app.put(
    '/',
    {
      schema: {
        operationId: 'updateBookCopy',
        summary: 'Update a copy',
        description:
          'Send the ETag of the copy as read (If-Match) and a copy changed since is refused with 412, the copy now in `error.details.current`. ' +
          'Without If-Match, a quantity the copy has had since staff last set its stock leaves the stock as sales made it (decision record 12).',
        headers: IfMatchHeader,
        body: Body({ id: PositiveInt, ...CopyFields }),
        response: responses(Type.Ref('BookCopyAdmin'), 400, 401, 403, 404, 412),
      },
    },
    async (request, reply) => {
      const { id, ...input } = request.body;
      const version = readVersion(request.headers['if-match']);
      if (version === null) throw refuse.form('If-Match must be the ETag the copy was read with, such as "3".');
      const copy = await app.catalogAdmin.updateCopy(id, input, version);
      reply.header('etag', versionTag(copy.version));
      return { data: copy };
    },
  );

  deleteByIdRoute(app, ['deleteBookCopy', 'Delete a copy that was never ordered'], [404, 409], app.catalogAdmin.deleteCopy);

  app.get(
    '/by-id/:id',
    {
      schema: {
        operationId: 'getBookCopyAdmin',
        summary: 'One copy',
        params: Type.Object({ id: PositiveInt }),
        response: responses(Type.Ref('BookCopyAdmin'), 400, 401, 403, 404),
      },
    },
    async (request, reply) => {
      const copy = await app.catalogAdmin.copyById(request.params.id);
      reply.header('etag', versionTag(copy.version));
      return { data: copy };
    },
  );
};

export default bookCopyRoutes;
