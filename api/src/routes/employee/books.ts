import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { BookUpdateBody } from '../../schemas/backoffice-catalog.ts';
import { PageSize, PositiveInt, responses } from '../../schemas/common.ts';
import { security } from './schemas.ts';

const tags = ['Back-office books'];

const bookRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/:pageNumber,:pageSize',
    {
      schema: {
        operationId: 'listBooks',
        tags,
        security,
        summary: 'A page of books',
        params: Type.Object({ pageNumber: PositiveInt, pageSize: PageSize }),
        response: responses(Type.Object({ books: Type.Array(Type.Ref('Book')), totalPages: Type.Integer() }), 400, 401, 403),
      },
    },
    async (request) => ({ data: await app.catalogAdmin.bookPage(request.params.pageNumber, request.params.pageSize) }),
  );

  app.post(
    '/:isbn',
    {
      schema: {
        operationId: 'addBookByIsbn',
        tags,
        security,
        summary: 'Add a book by ISBN-10 or ISBN-13 (looked up in the ISBN catalog)',
        params: Type.Object({ isbn: Type.String({ maxLength: 40 }) }),
        response: responses(Type.Ref('Book'), 400, 401, 403, 404, 409, 502),
      },
    },
    async (request) => ({ data: await app.catalogAdmin.addBookByIsbn(request.params.isbn) }),
  );

  app.put(
    '/',
    {
      schema: {
        operationId: 'updateBook',
        tags,
        security,
        summary: 'Update name, pages, author, category and publication date',
        body: BookUpdateBody,
        response: responses(Type.Ref('Book'), 400, 401, 403, 404),
      },
    },
    async (request) => ({ data: await app.catalogAdmin.updateBook(request.body) }),
  );

  app.delete(
    '/:id',
    {
      schema: {
        operationId: 'deleteBook',
        tags,
        security,
        summary: 'Delete a book that was never ordered (with its copies)',
        params: Type.Object({ id: PositiveInt }),
        response: responses(Type.Boolean(), 400, 401, 403, 404, 409),
      },
    },
    async (request) => {
      await app.catalogAdmin.deleteBook(request.params.id);
      return { data: true };
    },
  );

  app.get(
    '/by-id/:id',
    {
      schema: {
        operationId: 'getBook',
        tags,
        security,
        summary: 'One book',
        params: Type.Object({ id: PositiveInt }),
        response: responses(Type.Ref('Book'), 400, 401, 403, 404),
      },
    },
    async (request) => ({ data: await app.catalogAdmin.bookById(request.params.id) }),
  );

  app.get(
    '/by-name/:name',
    {
      schema: {
        operationId: 'findBooksByName',
        tags,
        security,
        summary: 'Books whose name contains the text (at most 50)',
        params: Type.Object({ name: Type.String({ maxLength: 300 }) }),
        response: responses(Type.Array(Type.Ref('Book')), 400, 401, 403),
      },
    },
    async (request) => ({ data: await app.catalogAdmin.booksByName(request.params.name) }),
  );
};

export default bookRoutes;
