// Every named ($id) schema, registered once at the root so any route subtree can $ref it and the
// OpenAPI document lists each once under components.schemas.
import fp from 'fastify-plugin';
import { CartItem } from './client/cart.ts';
import { ClientInfo } from './client/manage.ts';
import { ClientOrder } from './client/orders.ts';
import { Author } from './employee/authors.ts';
import { Copy } from './employee/book-copies.ts';
import { Book } from './employee/books.ts';
import { BackofficeOrder } from './employee/orders.ts';
import { ClientRow, EmployeeRow } from './employee/schemas.ts';
import { BookCard, BookDetail, BookType } from './public/schemas.ts';

export default fp(
  async (app) => {
    for (const schema of [
      BookCard,
      BookDetail,
      BookType,
      CartItem,
      ClientInfo,
      ClientOrder,
      ClientRow,
      EmployeeRow,
      Author,
      Book,
      Copy,
      BackofficeOrder,
    ]) {
      app.addSchema(schema);
    }
  },
  { name: 'shared-schemas' },
);
