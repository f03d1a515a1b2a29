// Two independent cookie sessions: the storefront's (client) and the back-office's (employee).
// Access cookies go to all of /api; refresh cookies only to the authentication routes. Each route
// subtree is gated once, by requireClient or requireEmployee (routes/client, routes/employee).
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { forbidden } from '../lib/errors.ts';
import { fromAnotherSitesPage } from '../lib/fetch-metadata.ts';
import { type Audience, sessionRepository } from '../modules/sessions/session-repository.ts';
import { type IssuedSession, type SessionService, sessionService } from '../modules/sessions/session-service.ts';
import { ACCESS_TOKEN_SECONDS } from '../modules/sessions/tokens.ts';

export type EmployeeRole = 'Admin' | 'Seller';

declare module 'fastify' {
  interface FastifyInstance {
    sessions: SessionService;
    /** The session cookie of this audience that the request carries, if any. */
    sessionCookie(request: FastifyRequest, audience: Audience, kind: 'access' | 'refresh'): string | undefined;
    setSessionCookies(request: FastifyRequest, reply: FastifyReply, audience: Audience, session: IssuedSession): void;
    clearSessionCookies(reply: FastifyReply, audience: Audience): void;
    /**
     * The gate of routes/client: at onRequest the access token's signature (a stranger is refused
     * before the body is read), then its session's check, awaited there. A route with
     * `config: { sessionCheckBesideBody: true }` awaits that check in preValidation instead, so its
     * body is read and parsed, and its own early reads run, meanwhile.
     */
    requireClient: {
      onRequest(request: FastifyRequest): Promise<void>;
      preValidation(request: FastifyRequest): Promise<void>;
    };
    requireEmployee(roles: EmployeeRole[]): (request: FastifyRequest) => Promise<void>;
  }
  interface FastifyContextConfig {
    /** The client session's check runs while the body is parsed (requireClient); for checkout. */
    sessionCheckBesideBody?: boolean;
  }
  interface FastifyRequest {
    /** The signed-in client, and the session's generation their access token is of (a renewal names it). */
    client: { id: number; familyId: string; generation: number } | null;
    /**
     * A client whose token is genuine and whose session is still being checked (requireClient):
     * for a route to start its own reads early, never to answer from before `live` has settled.
     */
    clientToConfirm: { id: number; familyId: string; generation: number; live: Promise<void> } | null;
    /** The signed-in employee, and the session's generation their access token is of (a step-up reads it). */
    employee: { id: number; role: EmployeeRole; familyId: string; generation: number } | null;
  }
}

/**
 * The signed-in client of a route under requireClient (routes/client), which sets it before any
 * handler runs: a route that reaches here without it was mounted outside that subtree, a bug
 * that fails loudly (500) rather than answering for nobody.
 */
export function signedInClient(request: FastifyRequest) {
  if (!request.client) throw new Error(`${request.routeOptions.url} runs without requireClient`);
  return request.client;
}

/** The signed-in employee of a route under requireEmployee (routes/employee); see signedInClient. */
export function signedInEmployee(request: FastifyRequest) {
  if (!request.employee) throw new Error(`${request.routeOptions.url} runs without requireEmployee`);
  return request.employee;
}

/**
 * Cookie names. Secure cookies carry the `__Secure-` prefix, which a browser accepts only from a
 * secure origin with the Secure attribute, so a plain-http page of the same host cannot plant them.
 */
export const cookieNames = (audience: Audience, secure = false) => {
  const prefix = secure ? '__Secure-' : '';
  return { access: `${prefix}bs_${audience}_at`, refresh: `${prefix}bs_${audience}_rt` };
};
export const REFRESH_COOKIE_PATH = '/api/public/authentication';

/** How often dead sessions are purged (by every instance; deletes are idempotent). */
const PURGE_INTERVAL_MS = 10 * 60 * 1000;

export default fp(
  async (app) => {
    const events = app.securityEvents;
    const sessionRows = sessionRepository(app.prisma, app.primarySql);
    const sessions = sessionService(sessionRows, app.config.jwtSecret, events);
    app.decorate('sessions', sessions);
    app.decorateRequest('client', null);
    app.decorateRequest('clientToConfirm', null);
    app.decorateRequest('employee', null);

    const purge = setInterval(() => {
      sessions.purge().catch((error: Error) => app.log.warn({ err: error }, 'session purge failed'));
    }, PURGE_INTERVAL_MS).unref();
    app.addHook('onClose', async () => clearInterval(purge));

    const { cookieSecure, corsOrigins } = app.config;
    const names = (audience: Audience) => cookieNames(audience, cookieSecure);
    // Strict unless a frontend on another site must send them (CORS_ORIGINS); then None, and Secure.
    const sameSite = corsOrigins.length ? ('none' as const) : ('strict' as const);

    const frontends = new Set(corsOrigins);
    app.decorate('sessionCookie', (request: FastifyRequest, audience: Audience, kind: 'access' | 'refresh') =>
      fromAnotherSitesPage(request, frontends) ? undefined : request.cookies[names(audience)[kind]],
    );

    app.decorate('setSessionCookies', (request: FastifyRequest, reply: FastifyReply, audience: Audience, session: IssuedSession) => {
      const { access, refresh } = names(audience);
      const base = { httpOnly: true, sameSite, secure: cookieSecure || request.protocol === 'https' };
      const refreshSeconds = Math.max(1, Math.floor((session.expiresAt.getTime() - Date.now()) / 1000));
      reply.setCookie(access, session.accessToken, { ...base, path: '/api', maxAge: ACCESS_TOKEN_SECONDS });
      reply.setCookie(refresh, session.refreshToken, { ...base, path: REFRESH_COOKIE_PATH, maxAge: refreshSeconds });
    });

    app.decorate('clearSessionCookies', (reply: FastifyReply, audience: Audience) => {
      const { access, refresh } = names(audience);
      // Cleared with the attributes they were set with, or a browser keeps the __Secure- ones.
      const base = { httpOnly: true, sameSite, secure: cookieSecure };
      reply.clearCookie(access, { ...base, path: '/api' });
      reply.clearCookie(refresh, { ...base, path: REFRESH_COOKIE_PATH });
    });

    app.decorate('requireClient', {
      async onRequest(request: FastifyRequest) {
        const { claims, live } = sessions.startAuthentication('client', app.sessionCookie(request, 'client', 'access'));
        const client = { id: claims.subjectId, familyId: claims.familyId, generation: claims.generation };
        if (!request.routeOptions.config.sessionCheckBesideBody) {
          await live;
          request.client = client;
          return;
        }
        // Awaited in preValidation. A request refused before then (a body too large or malformed)
        // leaves it unawaited, and its refusal is already the answer.
        live.catch(() => {});
        request.clientToConfirm = { ...client, live };
      },
      async preValidation(request: FastifyRequest) {
        const pending = request.clientToConfirm;
        if (!pending || request.client) return;
        const { live, ...client } = pending;
        await live;
        request.client = client;
      },
    });

    app.decorate('requireEmployee', (roles: EmployeeRole[]) => async (request: FastifyRequest) => {
      const claims = await sessions.authenticate('employee', app.sessionCookie(request, 'employee', 'access'));
      // The role is read fresh, so a changed or deleted employee loses access at once.
      const employee = await sessionRows.employeeRole(claims.subjectId);
      if (!employee || !roles.includes(employee.role)) {
        await events.record({
          type: 'authorization_refused',
          actor: `employee:${claims.subjectId}`,
          address: app.clientAddress(request),
          details: { method: request.method, route: request.routeOptions.url, role: employee?.role ?? null },
        });
        throw forbidden(employee ? 'Your role does not allow this.' : 'Your employee account no longer exists.');
      }
      request.employee = { id: claims.subjectId, role: employee.role, familyId: claims.familyId, generation: claims.generation };
    });
  },
  { name: 'sessions', dependencies: ['prisma', 'config', 'security-events'] },
);
