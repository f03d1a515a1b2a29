// A forgotten password (beyond the spec), for clients; employees ask an Admin. The identity provider
// proves the client owns the e-mail: it sends its password-reset e-mail, whose link opens the
// storefront's /reset-password with a one-time code. The client then chooses a new shop password
// (the password rules apply), the code is spent at the provider, and every session of theirs ends.
import { FORM_MESSAGES } from '@bookshop/rules';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { badRequest } from '../../lib/errors.ts';
import { publicOrigin } from '../../lib/public-origin.ts';
import { takingEffect } from '../../lib/write-budget.ts';
import { countHit } from '../../modules/security/counters.ts';
import { PROVIDER_ROUTE_TIME_LIMIT_MS } from '../../plugins/identity.ts';
import { Body, responses } from '../../schemas/common.ts';
import { documentRoutes } from '../document-routes.ts';

/** Reset e-mails one address may ask for per hour: each one mails someone. */
export const RESET_REQUESTS_PER_HOUR = 10;
/** Reset e-mails one client may receive per hour, whatever addresses ask: no one can flood an inbox. */
export const RESET_EMAILS_PER_CLIENT_PER_HOUR = 3;
/**
 * And per day: three an hour, every hour, was 72 a day in a client's inbox for as long as a stranger
 * kept asking, and each one spent the identity provider's daily quota of reset e-mails for the project.
 */
export const RESET_EMAILS_PER_CLIENT_PER_DAY = 5;
/** Codes one address may try per hour. */
export const RESETS_PER_HOUR = 20;

const ONE_HOUR_MS = 60 * 60 * 1000;
const ONE_DAY_MS = 24 * ONE_HOUR_MS;

const passwordResetRoutes: FastifyPluginAsyncTypebox = async (app) => {
  documentRoutes(app, { tags: ['Authentication'] });
  app.post(
    '/request',
    {
      config: { rateLimit: { max: RESET_REQUESTS_PER_HOUR, timeWindow: '1 hour' } },
      schema: {
        operationId: 'requestPasswordReset',
        summary: 'Forgot password: the identity provider e-mails a client a link to choose a new password (beyond the spec)',
        description: 'The answer is the same whether or not a client uses the e-mail, so it reveals no account.',
        body: Body({ account: Type.Optional(Type.String({ maxLength: 200 })) }),
        response: responses(Type.String(), 400, 429, 503),
      },
    },
    async (request) => {
      const account = app.accounts.resetRequestAccount(request.body);
      const clientId = await app.accounts.clientIdByAccount(account);
      if (clientId !== null) {
        // In the background, so the answer takes as long and reads the same whether or not a client
        // uses the e-mail, even when the provider is slow, throttled or down.
        const continueUrl = `${publicOrigin(app.config, request)}/login`;
        const address = app.clientAddress(request);
        const actor = `client:${clientId}`;
        void (async () => {
          // Counted atomically before sending, so requests racing each other can only send fewer.
          await app.securityEvents.record({ type: 'password_reset_requested', actor, address });
          const hour = await countHit(app.prisma, `reset-mail:${actor}`, ONE_HOUR_MS);
          if (hour.hits > RESET_EMAILS_PER_CLIENT_PER_HOUR) return;
          // The day counts only what the hour let through: a burst refused by the hour spends none of it.
          const day = await countHit(app.prisma, `reset-mail-day:${actor}`, ONE_DAY_MS);
          if (day.hits <= RESET_EMAILS_PER_CLIENT_PER_DAY) await app.sendPasswordResetEmail(account, continueUrl);
        })().catch((error: Error) => request.log.warn({ err: error }, 'could not send a password-reset e-mail'));
      }
      return { data: FORM_MESSAGES.resetRequested };
    },
  );

  app.post(
    '/',
    {
      // The code's check and its spending are two calls to the provider: the answer waits for both.
      config: { rateLimit: { max: RESETS_PER_HOUR, timeWindow: '1 hour' }, timeBudgetMs: PROVIDER_ROUTE_TIME_LIMIT_MS },
      schema: {
        operationId: 'resetPassword',
        summary: "Sets a client's new password with the code of the provider's reset e-mail; all their sessions end (beyond the spec)",
        body: Body({
          oobCode: Type.String({ minLength: 1, maxLength: 2000 }),
          newPassword: Type.Optional(Type.String({ maxLength: 1000 })),
        }),
        response: responses(Type.String(), 400, 429, 503),
      },
    },
    async (request) => {
      const { oobCode } = request.body;
      // The code is checked first, so a password the rules refuse does not spend it.
      const email = await app.confirmPasswordReset(oobCode);
      const clientId = await app.accounts.clientIdByAccount(email);
      if (clientId === null) throw badRequest(FORM_MESSAGES.resetNotForEmployees, 'NOT_A_CLIENT');
      const newPassword = app.accounts.acceptableNewPassword(request.body.newPassword, email);
      // The code is spent last, inside the shop's transaction: a refusal there leaves the shop as it was.
      // The provider's new password takes effect as its answer comes: once asked for, it holds this
      // request's 503 back and lets the shop's COMMIT through (lib/write-budget.ts), so the two agree.
      await app.accounts.resetClientPassword(clientId, newPassword, async () => {
        await takingEffect(() => app.confirmPasswordReset(oobCode, newPassword));
      });
      // Whoever reset the password proved they own the e-mail: no lockout stands between them and it.
      await app.loginThrottle.forgetAccount(email.toLowerCase());
      await app.securityEvents.record({ type: 'password_reset', actor: `client:${clientId}`, address: app.clientAddress(request) });
      return { data: FORM_MESSAGES.passwordReset };
    },
  );
};

export default passwordResetRoutes;
