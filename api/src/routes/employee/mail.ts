import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { signedInEmployee } from '../../plugins/sessions.ts';
import { OptionalPaging, PositiveInt, responses } from '../../schemas/common.ts';
import { documentRoutes } from '../document-routes.ts';

/** The e-mails the shop gave up on (Admin, beyond the spec): listed, and sent again on the Admin's word. */
const mailRoutes: FastifyPluginAsyncTypebox = async (app) => {
  documentRoutes(app, { tags: ['Back-office e-mail'] });
  app.get(
    '/dead-letters',
    {
      schema: {
        operationId: 'listDeadLetters',
        summary: 'E-mails not delivered after every try, newest first',
        querystring: OptionalPaging,
        response: responses(Type.Object({ letters: Type.Array(Type.Ref('DeadLetter')), totalPages: Type.Integer() }), 400, 401, 403),
      },
    },
    async (request) => {
      const { pageNumber = 1, pageSize = 25 } = request.query;
      return { data: await app.mail.deadLetters(pageNumber, pageSize) };
    },
  );
  app.post(
    '/dead-letters/:id/retry',
    {
      schema: {
        operationId: 'retryDeadLetter',
        summary: 'Puts an undelivered e-mail back in the queue, its tries counted afresh',
        description: 'Recorded in the audit log (`dead_letter_retried`).',
        params: Type.Object({ id: PositiveInt }),
        response: responses(Type.Boolean(), 400, 401, 403, 404),
      },
    },
    async (request) => {
      // An Admin's word that makes the shop write to someone again: the audit log says who, when and
      // which, in the retry's own transaction.
      await app.mail.retry(request.params.id, (kind) => ({
        type: 'dead_letter_retried',
        actor: `employee:${signedInEmployee(request).id}`,
        address: app.clientAddress(request),
        entity: 'MailOutbox',
        entityId: request.params.id,
        details: { kind },
      }));
      return { data: true };
    },
  );
};

export default mailRoutes;
