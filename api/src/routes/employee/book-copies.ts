import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { CopyBody, CopyFields, IfMatchHeader } from '../../schemas/backoffice-catalog.ts';
import { Body, PositiveInt, responses } from '../../schemas/common.ts';
import { documentRoutes } from '../document-routes.ts';
import { deleteByIdRoute, getByIdRoute, pagedListRoute, tagVersion, versionRead } from './schemas.ts';

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
      return { data: tagVersion(reply, await app.catalogAdmin.updateCopy(id, input, versionRead(request))) };
    },
  );

  deleteByIdRoute(
    app,
    ['deleteBookCopy', 'Delete a copy that was never ordered'],
    [404, 409],
    (id, request) => app.catalogAdmin.deleteCopy(id, versionRead(request)),
    {
      versioned: true,
      description:
        'Its stock and its movements go with it. Send the ETag of the copy as read (If-Match) and a copy changed since (a restock ' +
        'the screen did not show) is refused with 412, the copy now in `error.details.current`.',
    },
  );

  getByIdRoute(app, ['getBookCopyAdmin', 'One copy'], 'BookCopyAdmin', app.catalogAdmin.copyById);
};

export default bookCopyRoutes;
