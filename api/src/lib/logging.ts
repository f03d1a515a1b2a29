// Log format: JSON lines (one object per line, for collectors) everywhere except a developer's
// terminal, where pino-pretty makes them readable. Every line about a request carries its `reqId`.
import { createRequire } from 'node:module';
import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import type { DestinationStream } from 'pino';
import type { Config } from '../config.ts';

interface LogTransport {
  transport?: { target: string; options: Record<string, unknown> };
}

/** pino-pretty is a development tool: the runtime image leaves it out (docker/prune-modules.mjs). */
function prettyPrinterInstalled() {
  try {
    createRequire(import.meta.url).resolve('pino-pretty');
    return true;
  } catch {
    return false;
  }
}

export function terminalLogFormat(config: Pick<Config, 'env'>, stdout: { isTTY?: boolean } = process.stdout): LogTransport {
  if (config.env !== 'development' || !stdout.isTTY || !prettyPrinterInstalled()) return {};
  return { transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname' } } };
}

/** Query parameters whose values are secrets: a password reset's `oobCode`, an unsubscribe `token`. */
const SECRET_PARAMETER = /token|code|key|secret|password|signature/i;

/** Where a query may name a secret (a name may be percent-encoded): only such a query is parsed. */
const MAY_NAME_A_SECRET = new RegExp(`${SECRET_PARAMETER.source}|%`, 'i');

/** A request's URL as a log line may hold it: the value of a secret query parameter is cut. */
export function loggedUrl(url: string): string {
  const query = url.indexOf('?');
  if (query === -1 || !MAY_NAME_A_SECRET.test(url.slice(query + 1))) return url;
  const parameters = new URLSearchParams(url.slice(query + 1));
  let cut = false;
  for (const name of new Set(parameters.keys())) {
    if (SECRET_PARAMETER.test(name)) {
      parameters.set(name, 'REDACTED');
      cut = true;
    }
  }
  return cut ? `${url.slice(0, query)}?${parameters}` : url;
}

/**
 * The app's logger. A request is written as its method, URL (secret query values cut), host and
 * address, an answer as its status: no header, so no cookie, identity token or Set-Cookie (tested in
 * observability.test.ts through these very options). pino's `redact` of `req.headers.cookie` and
 * the like, used before, matched nothing for that reason (Fastify's serializers never wrote
 * headers) and cost every line a copy of its objects. `stream` is for tests.
 */
export function loggerOptions(config: Pick<Config, 'env' | 'logLevel'>, stream?: DestinationStream) {
  return {
    level: config.logLevel,
    serializers: {
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: loggedUrl(request.url),
        host: request.host,
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
      }),
    },
    ...(stream ? { stream } : terminalLogFormat(config)),
  };
}

/**
 * One line a request, written when it is answered, as pino-http writes it: what was asked (`req`),
 * the answer's status (`res`) and how long it took. Fastify's default writes a second line when the
 * request comes in, which repeated what this one says for every request that is answered (a late
 * one too, with 503 TIMEOUT at the time budget), at the cost of a second pino line and write on every
 * catalog read (docs/performance.md, "The request log"). The requests that are never answered
 * are written where that is known: those the time budget's sweep drops unanswered (a client that
 * left, a stream the budget cut: plugins/handler-timeout.ts), and those the router refuses (a
 * malformed address: plugins/errors.ts).
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest() {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    if (this.isLogDisabled(request)) return;
    if (error) reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}
