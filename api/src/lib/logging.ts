// Log format: JSON lines (one object per line, for collectors) everywhere except a developer's
// terminal, where pino-pretty makes them readable. Every line about a request carries its `reqId`.
import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import type { DestinationStream } from 'pino';
import type { Config } from '../config.ts';

interface LogTransport {
  transport?: { target: string; options: Record<string, unknown> };
}

export function terminalLogFormat(config: Pick<Config, 'env'>, stdout: { isTTY?: boolean } = process.stdout): LogTransport {
  if (config.env !== 'development' || !stdout.isTTY) return {};
  return { transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname' } } };
}

/**
 * The app's logger. No header reaches a line: Fastify's serializers write of a request its method,
 * URL, host and address and of an answer its status, so cookies, the identity token and Set-Cookie
 * never do (tested in observability.test.ts through these very options). pino's `redact` of
 * `req.headers.cookie` and the like matched nothing for that reason, and cost every line a copy of
 * its objects, so it is not used. `stream` is for tests.
 */
export function loggerOptions(config: Pick<Config, 'env' | 'logLevel'>, stream?: DestinationStream) {
  return { level: config.logLevel, ...(stream ? { stream } : terminalLogFormat(config)) };
}

/**
 * One line a request, written when it is answered, as pino-http writes it: what was asked (`req`),
 * the answer's status (`res`) and how long it took. Fastify's default writes a second line when the
 * request comes in; every request here is answered (a late one with 503 TIMEOUT at the time
 * budget), so that line repeated what this one says, and it cost a cheap catalog read a few
 * microseconds (docs/performance.md, "The request log"). A request its client leaves before the
 * answer never completes: the time budget's sweep logs it (plugins/handler-timeout.ts).
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest() {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    if (this.isLogDisabled(request)) return;
    if (error) reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}
