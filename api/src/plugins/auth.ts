// Two independent cookie sessions: the storefront's (client) and the back-office's (employee).
// Access cookies go to all of /api; refresh cookies only to the authentication routes.
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { forbidden } from '../lib/errors.ts';
import { loginThrottle, type ThrottleLimits } from '../modules/sessions/login-throttle.ts';
import type { Audience } from '../modules/sessions/session-repository.ts';
import { type IssuedSession, type SessionService, sessionService } from '../modules/sessions/session-service.ts';
import { ACCESS_TOKEN_SECONDS, REFRESH_TOKEN_SECONDS } from '../modules/sessions/tokens.ts';

export type EmployeeRole = 'Admin' | 'Seller';

declare module 'fastify' {
  interface FastifyInstance {
    sessions: SessionService;
    loginThrottle: ReturnType<typeof loginThrottle>;
    /** The session cookie of this audience that the request carries, if any. */
    sessionCookie(request: FastifyRequest, audience: Audience, kind: 'access' | 'refresh'): string | undefined;
    setSessionCookies(request: FastifyRequest, reply: FastifyReply, audience: Audience, session: IssuedSession): void;
    clearSessionCookies(reply: FastifyReply, audience: Audience): void;
    requireClient(request: FastifyRequest): Promise<void>;
    requireEmployee(roles: EmployeeRole[]): (request: FastifyRequest) => Promise<void>;
  }
  interface FastifyRequest {
    client: { id: number; familyId: string } | null;
    employee: { id: number; role: EmployeeRole; familyId: string } | null;
  }
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

export default fp<{ throttle?: ThrottleLimits }>(
  async (app, opts) => {
    const sessions = sessionService(app.prisma, app.config.jwtSecret);
    app.decorate('sessions', sessions);
    app.decorate('loginThrottle', loginThrottle(opts.throttle));
    app.decorateRequest('client', null);
    app.decorateRequest('employee', null);

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
      reply.setCookie(access, session.accessToken, { ...base, path: '/api', maxAge: ACCESS_TOKEN_SECONDS });
      reply.setCookie(refresh, session.refreshToken, { ...base, path: REFRESH_COOKIE_PATH, maxAge: REFRESH_TOKEN_SECONDS });
    });

    app.decorate('clearSessionCookies', (reply: FastifyReply, audience: Audience) => {
      const { access, refresh } = names(audience);
      // Cleared with the attributes they were set with, or a browser keeps the __Secure- ones.
      const base = { httpOnly: true, sameSite, secure: cookieSecure };
      reply.clearCookie(access, { ...base, path: '/api' });
      reply.clearCookie(refresh, { ...base, path: REFRESH_COOKIE_PATH });
    });

    app.decorate('requireClient', async (request: FastifyRequest) => {
      const claims = await sessions.authenticate('client', app.sessionCookie(request, 'client', 'access'));
      request.client = { id: claims.subjectId, familyId: claims.familyId };
    });

    app.decorate('requireEmployee', (roles: EmployeeRole[]) => async (request: FastifyRequest) => {
      const claims = await sessions.authenticate('employee', app.sessionCookie(request, 'employee', 'access'));
      // The role is read fresh, so a changed or deleted employee loses access at once.
      const employee = await app.prisma.employee.findUnique({ where: { id: claims.subjectId }, select: { role: true } });
      if (!employee) throw forbidden('Your employee account no longer exists.');
      if (!roles.includes(employee.role)) throw forbidden('Your role does not allow this.');
      request.employee = { id: claims.subjectId, role: employee.role, familyId: claims.familyId };
    });
  },
  { name: 'auth', dependencies: ['prisma', 'config'] },
);
