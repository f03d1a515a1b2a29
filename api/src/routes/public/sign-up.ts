import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { refuse } from '../../lib/refusals.ts';
import { deviceOf } from '../../modules/sessions/device.ts';
import { PROVIDER_ROUTE_TIME_LIMIT_MS } from '../../plugins/identity.ts';
import { Body, responses } from '../../schemas/common.ts';
import { documentRoutes } from '../document-routes.ts';

/** Sign-up attempts one address may make per hour (anonymous, so rate-limited). */
export const SIGN_UPS_PER_HOUR = 20;

const signUpRoutes: FastifyPluginAsyncTypebox = async (app) => {
  documentRoutes(app, { tags: ['Authentication'] });
  // What is parsed at most; the rule module's limits (a name's 100 characters) answer with the screen's words.
  const text = Type.Optional(Type.String({ maxLength: 1000 }));

  app.get(
    '/identity-config',
    {
      schema: {
        operationId: 'getIdentityConfig',
        summary: "Settings for the browser's identity SDK (Firebase Auth), read at run time",
        response: responses(
          Type.Object({
            apiKey: Type.String(),
            authDomain: Type.String(),
            projectId: Type.String(),
            emulatorUrl: Type.Union([Type.String(), Type.Null()]),
          }),
        ),
      },
    },
    async () => ({
      data: {
        apiKey: app.config.firebaseWebApiKey,
        authDomain: app.config.firebaseAuthDomain,
        projectId: app.config.firebaseProjectId,
        emulatorUrl: app.config.firebaseAuthEmulatorUrl,
      },
    }),
  );

  app.post(
    '/',
    {
      // The provider's sign-in or token check comes first: the answer waits for it, and for the client made after it.
      config: { rateLimit: { max: SIGN_UPS_PER_HOUR, timeWindow: '1 hour' }, timeBudgetMs: PROVIDER_ROUTE_TIME_LIMIT_MS },
      schema: {
        operationId: 'signUp',
        summary: 'Create the client record of an identity whose e-mail the provider has verified; signs the client in',
        description:
          'The identity provider must have verified the e-mail. Either send `Authorization: Bearer <Firebase ID token>` of that ' +
          "e-mail, or send the spec's body alone: the API then signs in to the provider with account_informations' e-mail " +
          'and password, which must be those of the provider account. An e-mail already a client is a 409, except the same ' +
          'sign-up (identity and password) sent again within the hour after one whose client was made but whose session ' +
          'never started (its answer lost): that signs the client in.',
        headers: Type.Object({ authorization: Type.Optional(Type.String()) }),
        body: Body({
          firstName: text,
          lastName: text,
          phoneNumber: text,
          // An e-mail as long as a sign-in takes (320), so no account is made that can never sign in.
          account_informations: Type.Optional(
            Body({ account: Type.Optional(Type.String({ maxLength: 320 })), password: Type.Optional(Type.String({ maxLength: 1000 })) }),
          ),
        }),
        response: responses(Type.String(), 400, 401, 403, 409, 429, 503),
      },
    },
    async (request, reply) => {
      const { account_informations, ...person } = request.body;
      const input = app.accounts.validateSignUp({ ...person, ...account_informations });
      const authorization = request.headers.authorization;
      const identity = authorization
        ? await app.verifyIdentity(authorization.match(/^Bearer (.+)$/)?.[1])
        : // The provider's password checked here is guessable like a sign-in's: throttled and recorded as
          // one. Right, it clears no failures: anyone may set the provider's password for an e-mail.
          await app.throttledPasswordCheck(request, input.account, () => app.signInToIdentityProvider(input.account, input.password), {
            clearsFailures: false,
          });
      const client = await app.accounts.signUp(input, identity);
      // The first session only: the same sign-up sent twice at once finishes once, the other is a duplicate.
      app.setSessionCookies(
        request,
        reply,
        'client',
        await app.sessions.startFirst(client.id, deviceOf(request.headers['user-agent']), refuse.emailTaken),
      );
      await app.recordClientEvent(request, 'client_signed_up', client.id);
      return { data: 'Client' };
    },
  );
};

export default signUpRoutes;
