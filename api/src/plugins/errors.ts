// One error handler: every failure leaves as `{ data: null, error: { code, message } }` with a 4xx or
// 5xx status, never a stack trace or SQL. Unexpected errors are logged in full and answered vaguely.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { brokenConstraint, DATABASE_RETRY_AFTER_SECONDS, databaseErrorSummary, isDatabaseUnavailable } from '../lib/database-errors.ts';
import { AppError } from '../lib/errors.ts';
import { isCausedByInput } from '../lib/input-errors.ts';
import { ErrorBody } from '../schemas/common.ts';

const PRISMA_CONFLICT = 'P2002';
const PRISMA_NOT_FOUND = 'P2025';
const PRISMA_FOREIGN_KEY = 'P2003';

const CONSTRAINT_MESSAGES = {
  unique: 'This already exists.',
  missing: 'Something this refers to is gone. Please reload and try again.',
  referenced: 'This is still referenced by other records.',
  check: 'This change conflicts with another made meanwhile. Please reload and try again.',
} as const;

/**
 * Errors the router raises before any route or error handler runs (a malformed percent-encoding, a
 * path parameter over maxParamLength), in the same `{ data: null, error }` shape.
 */
export const frameworkErrors = (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
  const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
  const message = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'A path parameter is too long.' : 'The address is malformed.';
  reply.status(status);
  // Fastify sends these outside a route, where no 'request completed' line follows (lib/logging.ts).
  request.log.info({ req: request, res: reply }, 'request refused: its address cannot be routed');
  reply.send({ data: null, error: { code: error.code ?? 'BAD_REQUEST', message, requestId: request.id } });
};

export default fp(
  async (app) => {
    app.addSchema(ErrorBody);

    app.setErrorHandler((error: FastifyError & { code?: string }, request, reply) => {
      const send = (status: number, code: string, message: string, details?: Record<string, unknown>) =>
        // The request id lets a user's report be matched with the server's log lines.
        reply.status(status).send({ data: null, error: { code, message, requestId: request.id, ...(details ? { details } : {}) } });

      if (error instanceof AppError) {
        reply.headers(error.headers);
        return send(error.statusCode, error.code, error.message, error.details);
      }
      if (error.validation) {
        const first = error.validation[0];
        const field = first?.instancePath?.replace(/^\//, '') || (first?.params as { missingProperty?: string })?.missingProperty;
        const where = error.validationContext === 'body' ? '' : `${error.validationContext} `;
        return send(400, 'VALIDATION', field ? `Invalid ${where}${field}: ${first?.message}.` : `Invalid request: ${error.message}.`);
      }
      if (isDatabaseUnavailable(error)) {
        // An outage, a lost connection or a lock/statement timeout: the client may retry; not a bug.
        request.log.warn({ cause: databaseErrorSummary(error) }, 'database unavailable');
        reply.header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS));
        return send(503, 'DATABASE_UNAVAILABLE', 'The shop is briefly unavailable. Please try again in a moment.');
      }
      if (error.code === 'FST_ERR_HANDLER_TIMEOUT') {
        request.log.warn('request over its time budget');
        reply.header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS));
        return send(503, 'TIMEOUT', 'The shop took too long to answer. Please try again in a moment.');
      }
      if (isCausedByInput(error)) {
        // A value the checks let through and the database or ORM refused (see lib/input-errors.ts).
        request.log.warn({ err: error }, 'input refused by the database');
        return send(400, 'INVALID_INPUT', 'Some of this input cannot be used (an unusual character, number or date). Please check it.');
      }
      if (error.code === PRISMA_NOT_FOUND) return send(404, 'NOT_FOUND', 'Not found.');
      // A rule of the schema the write broke, mostly by racing another (a copy deleted while it was added
      // to a cart): the routes check what they can first, and this says which rule it was.
      const broken =
        error.code === PRISMA_CONFLICT ? 'unique' : (brokenConstraint(error) ?? (error.code === PRISMA_FOREIGN_KEY ? 'referenced' : null));
      if (broken) {
        // A reference to a row deleted meanwhile, or a row still referenced, is a race the routes
        // cannot rule out. A unique key or a check the plain SQL broke is more likely a fault of ours
        // (a sequence behind its table after a restore, a CHECK not widened with the code): an alarm.
        const race = broken === 'missing' || broken === 'referenced' || error.code === PRISMA_CONFLICT;
        request.log[race ? 'warn' : 'error']({ cause: databaseErrorSummary(error) }, 'write refused by a constraint');
        return send(409, 'CONFLICT', CONSTRAINT_MESSAGES[broken]);
      }
      if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
        // Fastify's own client errors (malformed JSON, body too large, unsupported media type).
        return send(error.statusCode, error.code ?? 'BAD_REQUEST', error.message);
      }
      request.log.error({ err: error }, 'unhandled error');
      return send(500, 'INTERNAL', 'Something went wrong. Please try again.');
    });
  },
  { name: 'errors' },
);
