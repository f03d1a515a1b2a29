import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { CopyBody, CopyFields } from '../../schemas/backoffice-catalog.ts';
import { Body, PositiveInt, responses } from '../../schemas/common.ts';
import { documentRoutes } from '../document-routes.ts';
import { pagedListRoute } from './schemas.ts';

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
        body: Body({ id: PositiveInt, ...CopyFields }),
        response: responses(Type.Ref('BookCopyAdmin'), 400, 401, 403, 404),
      },
    },
    async (request) => {
      const { id, ...input } = request.body;
      return { data: await app.catalogAdmin.updateCopy(id, input) };
    },
  );

  app.delete(
    '/:id',
    {
      schema: {
        operationId: 'deleteBookCopy',
        summary: 'Delete a copy that was never ordered',
        params: Type.Object({ id: PositiveInt }),
        response: responses(Type.Boolean(), 400, 401, 403, 404, 409),
      },
    },
    async (request) => {
      await app.catalogAdmin.deleteCopy(request.params.id);
      return { data: true };
    },
  );

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
    async (request) => ({ data: await app.catalogAdmin.copyById(request.params.id) }),
  );
};

export default bookCopyRoutes;
