import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { responses } from '../../schemas/common.ts';
import { AuditQuery } from '../../schemas/staff.ts';
import { documentRoutes } from '../document-routes.ts';

/** The audit log (Admin, beyond the spec): read only; no route changes or removes an entry. */
const auditLogRoutes: FastifyPluginAsyncTypebox = async (app) => {
  documentRoutes(app, { tags: ['Back-office audit log'] });
  app.get(
    '/',
    {
      schema: {
        operationId: 'listAuditLog',
        summary: 'Security events and back-office writes, newest first, filtered by entity, event, person and day',
        querystring: AuditQuery,
        response: responses(Type.Ref('AuditPage'), 400, 401, 403),
      },
    },
    async (request) => ({ data: await app.auditLog.page(request.query) }),
  );
};

export default auditLogRoutes;
