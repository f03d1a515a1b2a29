// The whole API as one Fastify plugin tree; server.ts only listens. Cross-cutting concerns are named
// plugins; routes are grouped by audience, each subtree gated once.
import { randomUUID } from 'node:crypto';
import cookie from '@fastify/cookie';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyServerOptions } from 'fastify';
import type { Config } from './config.ts';
import { loggerOptions, OneLinePerRequest } from './lib/logging.ts';
import type { ThrottleLimits } from './modules/sessions/login-throttle.ts';
import auditActor from './plugins/audit-actor.ts';
import catalogCache from './plugins/catalog-cache.ts';
import catalogEvents from './plugins/catalog-events.ts';
import catalogProjections from './plugins/catalog-projections.ts';
import commaParams from './plugins/comma-params.ts';
import compression from './plugins/compression.ts';
import configPlugin from './plugins/config.ts';
import corsPlugin from './plugins/cors.ts';
import csrf from './plugins/csrf.ts';
import entityTags from './plugins/entity-tags.ts';
import errors, { frameworkErrors } from './plugins/errors.ts';
import handlerTimeout from './plugins/handler-timeout.ts';
import identity from './plugins/identity.ts';
import mail from './plugins/mail.ts';
import metrics from './plugins/metrics.ts';
import openapi from './plugins/openapi.ts';
import passwordCheck from './plugins/password-check.ts';
import prisma from './plugins/prisma.ts';
import rateLimit from './plugins/rate-limit.ts';
import retention from './plugins/retention.ts';
import secondFactor from './plugins/second-factor.ts';
import securityEvents from './plugins/security-events.ts';
import securityHeaders from './plugins/security-headers.ts';
import services from './plugins/services.ts';
import sessions from './plugins/sessions.ts';
import sharedSchemas from './plugins/shared-schemas.ts';
import strictInput from './plugins/strict-input.ts';
import web from './plugins/web.ts';
import clientRoutes from './routes/client/index.ts';
import employeeRoutes from './routes/employee/index.ts';
import healthRoutes from './routes/health.ts';
import pageRoutes from './routes/pages.ts';
import publicRoutes from './routes/public/index.ts';

export interface BuildOptions {
  throttle?: ThrottleLimits;
  onQuery?: (sql: string) => void;
  logger?: FastifyServerOptions['logger'];
}

/** A request id the API takes from X-Request-Id: letters, digits and `.`, `_`, `:`, `-`, 64 at most. */
const REQUEST_ID = /^[\w.:-]{1,64}$/;

/** proxy-addr's rule for a hop count: the nearest `hops` addresses are proxies, the next is the client. */
const trustHops = (hops: number) => (_address: string, hop: number) => hop < hops;

export async function buildApp(config: Config, options: BuildOptions = {}) {
  const app = Fastify({
    // JSON lines with no header in them (lib/logging.ts), one a request.
    logger: options.logger ?? loggerOptions(config),
    logController: new OneLinePerRequest(),
    // Unique across instances, or the proxy's X-Request-Id: each log line and error body names it.
    // Only an id of the proxies' kind is taken (nginx's 32 hex digits, a UUID, a trace id): anyone can
    // send the header, and a value of kilobytes, or with quotes and spaces, went into every line.
    requestIdHeader: false,
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    // Only the configured proxies' X-Forwarded-* count; a hop count trusts that many hops from us.
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    bodyLimit: 64 * 1024,
    // The spec writes some paths with a trailing slash and some without; both forms reach a route.
    // A parameter is measured percent-encoded: 300 characters (an author's name) of 4-byte UTF-8 take
    // 3,600, and a comma segment such as `{id},{name}` a few more. The schemas set the real limits.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 4096 },
    // Router errors (malformed percent-encoding, an over-long parameter) in the `{ data, error }` shape.
    frameworkErrors,
    // Unknown properties are stripped, never refused and never passed on (see Body in schemas/common.ts).
    ajv: { customOptions: { coerceTypes: true, removeAdditional: 'all', useDefaults: true } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  await app.register(configPlugin, { config });
  await app.register(errors);
  // The time budget of a request: past it the answer is a 503 rather than a wait without end.
  await app.register(handlerTimeout);
  await app.register(commaParams);
  await app.register(strictInput);
  await app.register(openapi);
  await app.register(securityHeaders);
  await app.register(compression);
  await app.register(corsPlugin);
  await app.register(cookie);
  await app.register(entityTags);
  await app.register(prisma, { onQuery: options.onQuery });
  await app.register(metrics);
  await app.register(catalogEvents);
  await app.register(catalogCache);
  await app.register(catalogProjections);
  await app.register(securityEvents);
  await app.register(passwordCheck, { throttle: options.throttle });
  await app.register(sessions);
  await app.register(auditActor);
  await app.register(secondFactor);
  await app.register(identity);
  // The rate limits first: the cross-site check runs after them on each route (plugins/csrf.ts).
  await app.register(rateLimit);
  await app.register(csrf);
  await app.register(retention);
  await app.register(mail);
  await app.register(services);
  await app.register(sharedSchemas);

  await app.register(healthRoutes, { prefix: '/api' });
  await app.register(publicRoutes, { prefix: '/api/public' });
  await app.register(clientRoutes, { prefix: '/api/client' });
  await app.register(employeeRoutes, { prefix: '/api' });
  await app.register(web);
  await app.register(pageRoutes);
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
