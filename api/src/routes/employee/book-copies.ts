import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { CopyBody, CopyFields } from '../../schemas/backoffice-catalog.ts';
import { Body, PageSize, PositiveInt, responses } from '../../schemas/common.ts';
import { security } from './schemas.ts';

const tags = ['Back-office book copies'];
const bookCopyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/:pageNumber,:pageSize',
    {
      schema: {
        operationId: 'listBookCopiesAdmin',
        tags,
        security,
        summary: 'A page of book copies',
        params: Type.Object({ pageNumber: PositiveInt, pageSize: PageSize }),
        response: responses(Type.Object({ booksCopies: Type.Array(Type.Ref('BookCopyAdmin')), totalPages: Type.Integer() }), 400, 401, 403),
      },
    },
    async (request) => ({ data: await app.catalogAdmin.copyPage(request.params.pageNumber, request.params.pageSize) }),
  );

  app.post(
    '/',
    {
      schema: {
        operationId: 'addBookCopy',
        tags,
        security,
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
        tags,
        security,
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
        tags,
        security,
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
        tags,
        security,
        summary: 'One copy',
        params: Type.Object({ id: PositiveInt }),
        response: responses(Type.Ref('BookCopyAdmin'), 400, 401, 403, 404),
      },
    },
    async (request) => ({ data: await app.catalogAdmin.copyById(request.params.id) }),
  );
};

export default bookCopyRoutes;
