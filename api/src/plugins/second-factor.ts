// Staff second factor (modules/second-factor): the service, the sign-in step's cookie, and the two
// gates of the back-office. The policy gate (STAFF_MFA=required) lets an Admin without a second factor
// reach only the routes that enrol one; the step-up gate makes a route marked `config: { stepUp: true }`
// ask for a second factor used within the last minutes, from an employee who has one.
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { fromAnotherSitesPage } from '../lib/fetch-metadata.ts';
import { publicOrigin } from '../lib/public-origin.ts';
import { refuse } from '../lib/refusals.ts';
import { secondFactorRepository } from '../modules/second-factor/second-factor-repository.ts';
import {
  CHALLENGE_SECONDS,
  type RelyingParty,
  type SecondFactorService,
  STEP_UP_MINUTES,
  secondFactorService,
} from '../modules/second-factor/second-factor-service.ts';
import { deviceOf } from '../modules/sessions/device.ts';
import { REFRESH_COOKIE_PATH, signedInEmployee } from './sessions.ts';

declare module 'fastify' {
  interface FastifyInstance {
    secondFactor: SecondFactorService;
    /** The WebAuthn relying party of this request: the shop's host name and origin (PUBLIC_URL, else the request's). */
    relyingParty(request: FastifyRequest): RelyingParty;
    signInToken: {
      read(request: FastifyRequest): string | undefined;
      set(request: FastifyRequest, reply: FastifyReply, token: string): void;
      clear(reply: FastifyReply): void;
    };
    /**
     * Starts the employee's back-office session after a proved second factor (after the password, or a
     * passkey alone), marks it so, and records the sign-in. After the password, only while the password
     * checked (`checkedPassword`, its hash's fingerprint) is still theirs: else 401, sign in again.
     */
    startEmployeeSessionWithSecondFactor(
      request: FastifyRequest,
      reply: FastifyReply,
      employeeId: number,
      method: 'second_factor' | 'passkey',
      checkedPassword?: string,
    ): Promise<void>;
    /** onRequest, after requireEmployee: under STAFF_MFA=required, an Admin without a factor reaches only enrolment. */
    secondFactorPolicy(request: FastifyRequest): Promise<void>;
    /** preHandler: a route marked `stepUp` needs a second factor used within the last minutes. */
    requireStepUp(request: FastifyRequest): Promise<void>;
    /**
     * Before a change of how the employee signs in that a stolen session must not make (their own
     * e-mail): with a second factor, one used within the step-up's minutes (403 STEP_UP_REQUIRED);
     * without one, their password (confirmOwnPassword).
     */
    reauthenticatedOrRefuse(request: FastifyRequest, currentPassword: string | undefined, missing: () => Error): Promise<void>;
  }
  interface FastifyContextConfig {
    /** The most sensitive actions: a second factor used within the last 10 minutes, when the employee has one. */
    stepUp?: boolean;
    /** Answers an Admin who must still enrol a second factor (STAFF_MFA=required). */
    beforeSecondFactor?: boolean;
  }
}

const PURGE_INTERVAL_MS = 10 * 60 * 1000;

export default fp(
  async (app) => {
    const service = secondFactorService(secondFactorRepository(app.prisma), {
      jwtSecret: app.config.jwtSecret,
      events: app.securityEvents,
      throttle: app.loginThrottle,
      log: app.log,
    });
    app.decorate('secondFactor', service);

    app.decorate('relyingParty', (request: FastifyRequest) => {
      const origin = publicOrigin(app.config, request);
      return { origin, rpID: new URL(origin).hostname };
    });

    // The sign-in step's token: an httpOnly cookie sent only to the authentication routes, like the refresh token.
    const { cookieSecure, corsOrigins } = app.config;
    const cookieName = `${cookieSecure ? '__Secure-' : ''}bs_second_factor`;
    const sameSite = corsOrigins.length ? ('none' as const) : ('strict' as const);
    const frontends = new Set(corsOrigins);
    app.decorate('signInToken', {
      read: (request: FastifyRequest) => (fromAnotherSitesPage(request, frontends) ? undefined : request.cookies[cookieName]),
      set(request: FastifyRequest, reply: FastifyReply, token: string) {
        reply.setCookie(cookieName, token, {
          httpOnly: true,
          sameSite,
          secure: cookieSecure || request.protocol === 'https',
          path: REFRESH_COOKIE_PATH,
          maxAge: CHALLENGE_SECONDS,
        });
      },
      clear(reply: FastifyReply) {
        reply.clearCookie(cookieName, { httpOnly: true, sameSite, secure: cookieSecure, path: REFRESH_COOKIE_PATH });
      },
    });

    app.decorate(
      'startEmployeeSessionWithSecondFactor',
      async (
        request: FastifyRequest,
        reply: FastifyReply,
        employeeId: number,
        method: 'second_factor' | 'passkey',
        checkedPassword?: string,
      ) => {
        const session = await app.sessions.start(
          'employee',
          employeeId,
          { device: deviceOf(request.headers['user-agent']), checkedPassword },
          refuse.signInStepExpired,
        );
        await service.markSecondFactor(session.familyId);
        app.setSessionCookies(request, reply, 'employee', session);
        await app.recordEmployeeSignIn(request, employeeId, method);
      },
    );

    app.decorate('secondFactorPolicy', async (request: FastifyRequest) => {
      if (app.config.staffMfa !== 'required' || request.routeOptions.config.beforeSecondFactor) return;
      const employee = signedInEmployee(request);
      if (employee.role === 'Admin' && !(await service.hasFactor(employee.id))) throw refuse.secondFactorEnrolmentRequired();
    });

    const steppedUpOrRefuse = async (request: FastifyRequest) => {
      const employee = signedInEmployee(request);
      if (!(await service.steppedUp(employee.id, employee))) throw refuse.stepUpRequired(STEP_UP_MINUTES);
    };
    app.decorate('reauthenticatedOrRefuse', async (request: FastifyRequest, currentPassword: string | undefined, missing: () => Error) => {
      // An employee with no factor has nothing to step up with: the password, or a stolen session could
      // make the e-mail the thief's (the owner losing the name they sign in with, the notices going to the thief).
      const { id } = signedInEmployee(request);
      if (!(await service.hasFactor(id))) return app.confirmOwnPassword(request, 'employee', id, currentPassword, missing);
      await steppedUpOrRefuse(request);
    });
    app.decorate('requireStepUp', async (request: FastifyRequest) => {
      if (request.routeOptions.config.stepUp) await steppedUpOrRefuse(request);
    });

    const purge = setInterval(() => {
      service.purge().catch((error: Error) => app.log.warn({ err: error }, 'second-factor purge failed'));
    }, PURGE_INTERVAL_MS).unref();
    app.addHook('onClose', async () => clearInterval(purge));
  },
  { name: 'second-factor', dependencies: ['config', 'prisma', 'security-events', 'password-check', 'sessions'] },
);
