// Two independent cookie sessions: the storefront's (client) and the back-office's (employee).
// Access cookies go to all of /api; refresh cookies only to the authentication routes. Also the
// pieces every sign-in shares: the password hasher, the login throttle and the security events.
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { addressKey } from '../lib/client-address.ts';
import { AppError, forbidden } from '../lib/errors.ts';
import { accountRepository } from '../modules/accounts/account-repository.ts';
import { type PasswordHasher, passwordHasher } from '../modules/accounts/passwords.ts';
import { type AuditActor, auditContext } from '../modules/security/audit.ts';
import { type SecurityEvents, securityEvents } from '../modules/security/security-events.ts';
import { type LoginThrottle, loginThrottle, type ThrottleLimits } from '../modules/sessions/login-throttle.ts';
import { type Audience, sessionRepository } from '../modules/sessions/session-repository.ts';
import { type IssuedSession, type SessionService, sessionService } from '../modules/sessions/session-service.ts';
import { ACCESS_TOKEN_SECONDS } from '../modules/sessions/tokens.ts';

export type EmployeeRole = 'Admin' | 'Seller';

declare module 'fastify' {
  interface FastifyInstance {
    sessions: SessionService;
    passwords: PasswordHasher;
    loginThrottle: LoginThrottle;
    securityEvents: SecurityEvents;
    /** The client's address as counted by limits: IPv4, or the IPv6 /64 (see lib/client-address.ts). */
    clientAddress(request: FastifyRequest): string;
    /** The session cookie of this audience that the request carries, if any. */
    sessionCookie(request: FastifyRequest, audience: Audience, kind: 'access' | 'refresh'): string | undefined;
    setSessionCookies(request: FastifyRequest, reply: FastifyReply, audience: Audience, session: IssuedSession): void;
    clearSessionCookies(reply: FastifyReply, audience: Audience): void;
    /**
     * Runs a password check (sign-in, or the current password of a password change) under the login
     * throttle of this account and address: reserved first (429 when locked), a wrong password
     * recorded as a failure and a security event, a right one clearing the account's failures.
     */
    throttledPasswordCheck<T>(request: FastifyRequest, account: string, check: () => Promise<T>): Promise<T>;
    requireClient(request: FastifyRequest): Promise<void>;
    requireEmployee(roles: EmployeeRole[]): (request: FastifyRequest) => Promise<void>;
    /**
     * Runs the rest of the request with the signed-in employee as the audit actor (after
     * requireEmployee). Callback-style on purpose: calling `done` inside AsyncLocalStorage.run is what
     * carries the actor into the later hooks, the handler and every query they start.
     */
    asAuditActor(request: FastifyRequest, reply: FastifyReply, done: () => void): void;
    /** The signed-in employee as the audit log names them, for work that outlives the request (an import). */
    auditActor(request: FastifyRequest): AuditActor;
  }
  interface FastifyRequest {
    client: { id: number; familyId: string } | null;
    employee: { id: number; role: EmployeeRole; familyId: string } | null;
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

/** How often expired counters and dead sessions are purged (by every instance; deletes are idempotent). */
const PURGE_INTERVAL_MS = 10 * 60 * 1000;

export default fp<{ throttle?: ThrottleLimits }>(
  async (app, opts) => {
    const events = securityEvents(app.prisma, app.log);
    const sessions = sessionService(sessionRepository(app.prisma, app.primarySql), app.config.jwtSecret, events);
    const accounts = accountRepository(app.prisma);
    app.decorate('securityEvents', events);
    app.decorate('sessions', sessions);
    app.decorate('passwords', passwordHasher(app.config.bcryptCost));
    app.decorate('loginThrottle', loginThrottle(app.prisma, opts.throttle));
    app.decorate('clientAddress', (request: FastifyRequest) => addressKey(request.ip));
    app.decorateRequest('client', null);
    app.decorateRequest('employee', null);

    const purge = setInterval(() => {
      Promise.all([app.loginThrottle.purge(), sessions.purge()]).catch((error: Error) => app.log.warn({ err: error }, 'purge failed'));
    }, PURGE_INTERVAL_MS).unref();
    app.addHook('onClose', async () => clearInterval(purge));

    const { cookieSecure, corsOrigins } = app.config;
    const names = (audience: Audience) => cookieNames(audience, cookieSecure);
    // Strict unless a frontend on another site must send them (CORS_ORIGINS); then None, and Secure.
    const sameSite = corsOrigins.length ? ('none' as const) : ('strict' as const);

    app.decorate('sessionCookie', (request: FastifyRequest, audience: Audience, kind: 'access' | 'refresh') => {
      return request.cookies[names(audience)[kind]];
    });

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

    /** Refusals that mean "wrong password", as opposed to a check that could not run. */
    const WRONG_PASSWORD_CODES = new Set(['INVALID_CREDENTIALS', 'WRONG_PASSWORD']);
    app.decorate('throttledPasswordCheck', async <T>(request: FastifyRequest, account: string, check: () => Promise<T>): Promise<T> => {
      const address = app.clientAddress(request);
      const attempt = await app.loginThrottle.reserve(account, address);
      let result: T;
      try {
        result = await check();
      } catch (error) {
        if (!(error instanceof AppError && WRONG_PASSWORD_CODES.has(error.code))) {
          await attempt.release();
          throw error;
        }
        const { locked } = await attempt.failed();
        app.shopMetrics.loginFailures.inc();
        if (locked) app.shopMetrics.lockouts.inc();
        const type = error.code === 'INVALID_CREDENTIALS' ? 'login_failed' : 'password_check_failed';
        await events.record({ type, actor: account, address });
        if (locked) await events.record({ type: 'login_locked', actor: account, address, details: { limits: app.loginThrottle.limits } });
        throw error;
      }
      await attempt.succeeded();
      return result;
    });

    const auditActor = (request: FastifyRequest): AuditActor => {
      if (!request.employee) throw new Error('auditActor needs an employee session (requireEmployee runs first)');
      return { actor: `employee:${request.employee.id}`, address: app.clientAddress(request) };
    };
    app.decorate('auditActor', auditActor);
    app.decorate('asAuditActor', (request: FastifyRequest, _reply: FastifyReply, done: () => void) => {
      if (!request.employee) return done();
      auditContext.run(auditActor(request), done);
    });

    app.decorate('requireClient', async (request: FastifyRequest) => {
      const claims = await sessions.authenticate('client', app.sessionCookie(request, 'client', 'access'));
      request.client = { id: claims.subjectId, familyId: claims.familyId };
    });

    app.decorate('requireEmployee', (roles: EmployeeRole[]) => async (request: FastifyRequest) => {
      const claims = await sessions.authenticate('employee', app.sessionCookie(request, 'employee', 'access'));
      // The role is read fresh, so a changed or deleted employee loses access at once.
      const employee = await accounts.employeeRole(claims.subjectId);
      if (!employee || !roles.includes(employee.role)) {
        await events.record({
          type: 'authorization_refused',
          actor: `employee:${claims.subjectId}`,
          address: app.clientAddress(request),
          details: { method: request.method, route: request.routeOptions.url, role: employee?.role ?? null },
        });
        throw forbidden(employee ? 'Your role does not allow this.' : 'Your employee account no longer exists.');
      }
      request.employee = { id: claims.subjectId, role: employee.role, familyId: claims.familyId };
    });
  },
  { name: 'auth', dependencies: ['prisma', 'config', 'metrics'] },
);
