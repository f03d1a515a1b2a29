import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Body, responses } from '../../schemas/common.ts';
import { PasskeyAssertion, PasskeyRequestOptions, SecondFactorOptions, SecondFactorProof } from '../../schemas/second-factor.ts';
import { documentRoutes } from '../document-routes.ts';

const PASSKEY_SIGN_INS_PER_HOUR = 60;
const Role = Type.String({ description: "'Admin' or 'Seller': the back-office session has started" });

/**
 * The sign-in's second step for employees with a second factor, and a passkey sign-in without the
 * password. The step after the password is carried by a short-lived httpOnly cookie of its own,
 * which no back-office route reads.
 */
const secondFactorSignInRoutes: FastifyPluginAsyncTypebox = async (app) => {
  documentRoutes(app, { tags: ['Authentication'] });
  app.post(
    '/second-factor/options',
    {
      schema: {
        operationId: 'secondFactorSignInOptions',
        summary: 'After the password: which second factors the employee can give, with a passkey challenge if they have passkeys',
        response: responses(SecondFactorOptions, 401),
      },
    },
    async (request) => {
      const token = app.signInToken.read(request);
      const { employeeId } = await app.secondFactor.signInStep(token);
      return { data: await app.secondFactor.proofOptions(employeeId, app.relyingParty(request), { signInToken: token }) };
    },
  );

  app.post(
    '/second-factor',
    {
      schema: {
        operationId: 'secondFactorSignIn',
        summary: "The sign-in's second step: an authenticator code, a recovery code or a passkey; starts the back-office session",
        body: SecondFactorProof,
        response: responses(Role, 400, 401, 429, 503),
      },
    },
    async (request, reply) => {
      const token = app.signInToken.read(request);
      const { employeeId, passwordFingerprint } = await app.secondFactor.signInStep(token);
      await app.secondFactor.prove(employeeId, request.body, {
        rp: app.relyingParty(request),
        address: app.clientAddress(request),
        signInToken: token,
      });
      app.signInToken.clear(reply);
      // A password changed since the first step ends this sign-in.
      await app.startEmployeeSessionWithSecondFactor(request, reply, employeeId, 'second_factor', passwordFingerprint);
      return { data: (await app.accounts.employeeInfo(employeeId)).role };
    },
  );

  app.post(
    '/passkey/options',
    {
      // Nothing is stored (the challenge rides in the sign-in cookie, sealed), but a flood is still refused.
      config: { rateLimit: { max: PASSKEY_SIGN_INS_PER_HOUR, timeWindow: '1 hour' } },
      schema: {
        operationId: 'passkeySignInOptions',
        summary: 'A passkey sign-in without the password: the challenge for any passkey of the shop',
        response: responses(PasskeyRequestOptions, 429),
      },
    },
    async (request, reply) => {
      const { token, options } = await app.secondFactor.passkeySignInOptions(app.relyingParty(request));
      app.signInToken.set(request, reply, token);
      return { data: options };
    },
  );

  app.post(
    '/passkey',
    {
      // A wrong answer does not spend its challenge (only a passkey's verified one does): each is a
      // lookup, a signature's check and a security event, so an address gets so many an hour.
      config: { rateLimit: { max: PASSKEY_SIGN_INS_PER_HOUR, timeWindow: '1 hour' } },
      schema: {
        operationId: 'passkeySignIn',
        summary: "A passkey's answer to the passkey sign-in's challenge; starts the back-office session",
        body: Body({ passkey: PasskeyAssertion }),
        response: responses(Role, 400, 401, 429, 503),
      },
    },
    async (request, reply) => {
      const employeeId = await app.secondFactor.passkeySignIn(
        app.signInToken.read(request),
        request.body.passkey,
        app.relyingParty(request),
        app.clientAddress(request),
      );
      app.signInToken.clear(reply);
      await app.startEmployeeSessionWithSecondFactor(request, reply, employeeId, 'passkey');
      return { data: (await app.accounts.employeeInfo(employeeId)).role };
    },
  );
};

export default secondFactorSignInRoutes;
