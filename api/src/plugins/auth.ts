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

export const cookieNames = (audience: Audience) => ({ access: `bs_${audience}_at`, refresh: `bs_${audience}_rt` });
export const REFRESH_COOKIE_PATH = '/api/public/authentication';

export default fp<{ throttle?: ThrottleLimits }>(
  async (app, opts) => {
    const sessions = sessionService(app.prisma, app.config.jwtSecret);
    app.decorate('sessions', sessions);
    app.decorate('loginThrottle', loginThrottle(opts.throttle));
    app.decorateRequest('client', null);
    app.decorateRequest('employee', null);

    app.decorate('setSessionCookies', (request: FastifyRequest, reply: FastifyReply, audience: Audience, session: IssuedSession) => {
      const names = cookieNames(audience);
      const base = {
        httpOnly: true,
        sameSite: 'strict' as const,
        secure: app.config.cookieSecure || request.protocol === 'https',
      };
      reply.setCookie(names.access, session.accessToken, { ...base, path: '/api', maxAge: ACCESS_TOKEN_SECONDS });
      reply.setCookie(names.refresh, session.refreshToken, { ...base, path: REFRESH_COOKIE_PATH, maxAge: REFRESH_TOKEN_SECONDS });
    });

    app.decorate('clearSessionCookies', (reply: FastifyReply, audience: Audience) => {
      const names = cookieNames(audience);
      reply.clearCookie(names.access, { path: '/api' });
      reply.clearCookie(names.refresh, { path: REFRESH_COOKIE_PATH });
    });

    app.decorate('requireClient', async (request: FastifyRequest) => {
      const claims = await sessions.authenticate('client', request.cookies[cookieNames('client').access]);
      request.client = { id: claims.subjectId, familyId: claims.familyId };
    });

    app.decorate('requireEmployee', (roles: EmployeeRole[]) => async (request: FastifyRequest) => {
      const claims = await sessions.authenticate('employee', request.cookies[cookieNames('employee').access]);
      // The role is read fresh, so a changed or deleted employee loses access at once.
      const employee = await app.prisma.employee.findUnique({ where: { id: claims.subjectId }, select: { role: true } });
      if (!employee) throw forbidden('Your employee account no longer exists.');
      if (!roles.includes(employee.role)) throw forbidden('Your role does not allow this.');
      request.employee = { id: claims.subjectId, role: employee.role, familyId: claims.familyId };
    });
  },
  { name: 'auth', dependencies: ['prisma', 'config'] },
);
