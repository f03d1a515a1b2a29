import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { BookUpdateBody, IfMatchHeader } from '../../schemas/backoffice-catalog.ts';
import { responses } from '../../schemas/common.ts';
import { documentRoutes } from '../document-routes.ts';
import { deleteByIdRoute, getByIdRoute, pagedListRoute, tagVersion, versionRead } from './schemas.ts';

const bookRoutes: FastifyPluginAsyncTypebox = async (app) => {
  documentRoutes(app, { tags: ['Back-office books'] });
  pagedListRoute(app, ['listBooks', 'A page of books'], { books: 'Book' }, app.catalogAdmin.bookPage);

  app.post(
    '/:isbn',
    {
      schema: {
        operationId: 'addBookByIsbn',
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
        summary: 'Update name, pages, author, category and publication date',
        description:
          'Send the ETag of the book as read (If-Match) and a book changed since is refused with 412, the book now in `error.details.current`. ' +
          "Without If-Match the fields sent are written as they are (the spec's own client).",
        headers: IfMatchHeader,
        body: BookUpdateBody,
        response: responses(Type.Ref('Book'), 400, 401, 403, 404, 412),
      },
    },
    async (request, reply) => ({ data: tagVersion(reply, await app.catalogAdmin.updateBook(request.body, versionRead(request))) }),
  );

  deleteByIdRoute(
    app,
    ['deleteBook', 'Delete a book that was never ordered (with its copies)'],
    [404, 409],
    (id, request) => app.catalogAdmin.deleteBook(id, versionRead(request)),
    {
      versioned: true,
      description:
        'Send the ETag of the book as read (If-Match) and a book changed since is refused with 412, the book now in `error.details.current`. ' +
        "Without If-Match the book is deleted as it is (the spec's own client).",
    },
  );
  getByIdRoute(app, ['getBook', 'One book'], 'Book', app.catalogAdmin.bookById);

  app.get(
    '/by-name/:name',
    {
      schema: {
        operationId: 'findBooksByName',
        summary: 'Books whose name contains the text (at most 50)',
        params: Type.Object({ name: Type.String({ maxLength: 300 }) }),
        response: responses(Type.Array(Type.Ref('Book')), 400, 401, 403),
      },
    },
    async (request) => ({ data: await app.catalogAdmin.booksByName(request.params.name) }),
  );
};

export default bookRoutes;
