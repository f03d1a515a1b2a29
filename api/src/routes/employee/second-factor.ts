import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { refuse } from '../../lib/refusals.ts';
import { STEP_UP_FAILURES_PER_SESSION } from '../../modules/second-factor/second-factor-service.ts';
import type { Renewal } from '../../modules/sessions/session-service.ts';
import { signedInEmployee } from '../../plugins/sessions.ts';
import { Body, PositiveInt, responses } from '../../schemas/common.ts';
import {
  Passkey,
  PasskeyAttestation,
  PasskeyCreationOptions,
  PasskeyName,
  RecoveryCodes,
  SecondFactorOptions,
  SecondFactorProof,
  SecondFactorStatus,
} from '../../schemas/second-factor.ts';
import { documentRoutes } from '../document-routes.ts';
import { deleteByIdRoute } from './schemas.ts';

const STEP_UP_NOTE =
  'When the employee already has a second factor, this needs one used within the last 10 minutes (403 STEP_UP_REQUIRED otherwise).';
/** What a factor proved in a session does to its tokens (`proving`). */
const RENEWS_TOKENS =
  "This session's cookies are renewed (Set-Cookie): its access and refresh tokens from before are refused from then on. Sent from a session another call renewed a moment before (another tab): 409 RENEWED_MEANWHILE, nothing kept.";
const ENDS_OTHER_SESSIONS = "The employee's other sessions end; this one stays.";
const FIRST_FACTOR_NOTE =
  'An employee without a second factor gives their password (`currentPassword`; 400 PASSWORD_REQUIRED or WRONG_PASSWORD, throttled as a sign-in): a stolen session alone cannot enrol a factor of its own. One who has a factor needs the step-up instead.';
/** The body of a call that starts adding a factor. */
const AddFactorBody = Body({ currentPassword: Type.Optional(Type.String({ maxLength: 1000 })) });
/**
 * These calls had no body before the password: one sent without (a tab of the earlier web build, a
 * script) is read as an empty one, so an employee who has a factor is answered as before.
 */
const noBodyIsEmpty = (request: FastifyRequest, _reply: unknown, done: () => void) => {
  request.body ??= {};
  done();
};

/**
 * The signed-in employee's own second factor (any role): an authenticator app, passkeys, recovery
 * codes, and the step-up the sensitive actions ask for. All of it answers an Admin who must still
 * enrol one (STAFF_MFA=required); changing what is already set up needs a step-up.
 */
const secondFactorRoutes: FastifyPluginAsyncTypebox = async (app) => {
  documentRoutes(app, { tags: ['Back-office second factor'] });
  const enrolment = { beforeSecondFactor: true };
  const sensitive = { beforeSecondFactor: true, stepUp: true };
  const who = (request: Parameters<typeof signedInEmployee>[0]) => {
    const employee = signedInEmployee(request);
    return { ...employee, address: app.clientAddress(request) };
  };
  /**
   * Adding a first factor needs the password (its confirmation also hands out the recovery codes):
   * the step-up guards adding one more, but an employee with none has nothing to step up with, and a
   * stolen session would otherwise enrol the thief's own app or passkey for password-less sign-ins.
   */
  const confirmFirstFactor = async (request: Parameters<typeof who>[0], currentPassword: string | undefined) => {
    const { id } = signedInEmployee(request);
    if (await app.secondFactor.hasFactor(id)) return;
    await app.confirmOwnPassword(request, 'employee', id, currentPassword, refuse.passwordForFirstFactor);
  };
  /**
   * Runs `prove` with a factor just typed or presented: once it succeeds, the session counts as stepped
   * up, with new tokens (a re-authentication: those it had until now are refused from here on, so a
   * token taken or planted before never holds the step-up). `prove` writes the renewal (`renewal`, a
   * KeptSession) in its own change's transaction, or alone when it changes nothing else (a step-up).
   */
  const proving = async <T>(
    request: Parameters<typeof who>[0],
    reply: FastifyReply,
    prove: (employee: ReturnType<typeof who>, renewal: Renewal) => Promise<T>,
  ) => {
    const employee = who(request);
    const renewal = await app.sessions.renewal('employee', employee, { secondFactorAt: new Date() });
    const result = await prove(employee, renewal);
    app.setSessionCookies(request, reply, 'employee', renewal.issued());
    return result;
  };

  app.get(
    '/',
    {
      config: enrolment,
      schema: {
        operationId: 'getOwnSecondFactor',
        summary: 'My second factors: the authenticator app, passkeys, recovery codes left; whether one is required; the step-up',
        response: responses(SecondFactorStatus, 401, 403),
      },
    },
    async (request) => {
      const { id, role, familyId } = signedInEmployee(request);
      const status = await app.secondFactor.status(id);
      const has = status.totp || status.passkeys.length > 0;
      return {
        data: {
          ...status,
          required: app.config.staffMfa === 'required' && role === 'Admin' && !has,
          stepUpUntil: has ? await app.secondFactor.stepUpUntil(familyId) : null,
        },
      };
    },
  );

  app.post(
    '/totp',
    {
      config: sensitive,
      schema: {
        operationId: 'startTotpSetup',
        summary: 'Start setting up an authenticator app: its secret (as text and as an otpauth:// address for a QR code)',
        description: `The app counts once its first code is confirmed. ${STEP_UP_NOTE} ${FIRST_FACTOR_NOTE}`,
        body: AddFactorBody,
        response: responses(Type.Object({ secret: Type.String(), otpauthUrl: Type.String(), issuer: Type.String() }), 400, 401, 403, 429),
      },
      preValidation: noBodyIsEmpty,
    },
    async (request) => {
      await confirmFirstFactor(request, request.body.currentPassword);
      return { data: await app.secondFactor.startTotp(signedInEmployee(request).id) };
    },
  );

  app.post(
    '/totp/confirm',
    {
      config: sensitive,
      schema: {
        operationId: 'confirmTotpSetup',
        summary: 'Confirm the authenticator app with its first code; a first second factor answers the recovery codes, once',
        description: `${ENDS_OTHER_SESSIONS} ${RENEWS_TOKENS}`,
        body: Body({ code: Type.String({ maxLength: 20 }) }),
        response: responses(Type.Object({ recoveryCodes: RecoveryCodes }), 400, 401, 403, 409, 429),
      },
    },
    async (request, reply) => ({
      // A change to how the employee signs in ends their other sessions with it, as a new password does
      // (ASVS 7.4.3): a thief's session is no longer in force. This one, which made the change, stays.
      data: await proving(request, reply, ({ id, address }, renewal) =>
        app.secondFactor.confirmTotp(id, request.body.code, address, renewal),
      ),
    }),
  );

  app.delete(
    '/totp',
    {
      config: sensitive,
      schema: {
        operationId: 'removeTotp',
        summary: 'Remove my authenticator app',
        description: `${STEP_UP_NOTE} ${ENDS_OTHER_SESSIONS}`,
        response: responses(Type.Boolean(), 401, 403, 404, 409),
      },
    },
    async (request) => {
      const employee = who(request);
      await app.secondFactor.removeTotp(employee.id, employee.address, employee.familyId);
      return { data: true };
    },
  );

  app.post(
    '/passkeys/options',
    {
      config: sensitive,
      schema: {
        operationId: 'passkeyRegistrationOptions',
        summary: 'Start registering a passkey: the options for the browser',
        description: `${STEP_UP_NOTE} ${FIRST_FACTOR_NOTE}`,
        body: AddFactorBody,
        response: responses(PasskeyCreationOptions, 400, 401, 403, 429),
      },
      preValidation: noBodyIsEmpty,
    },
    async (request) => {
      await confirmFirstFactor(request, request.body.currentPassword);
      return { data: await app.secondFactor.passkeyRegistrationOptions(signedInEmployee(request).id, app.relyingParty(request)) };
    },
  );

  app.post(
    '/passkeys',
    {
      config: sensitive,
      schema: {
        operationId: 'registerPasskey',
        summary: "Register a passkey with the browser's answer and a name; a first second factor answers the recovery codes, once",
        description: `${ENDS_OTHER_SESSIONS} ${RENEWS_TOKENS}`,
        body: Body({ name: PasskeyName, response: PasskeyAttestation }),
        response: responses(Type.Object({ passkey: Passkey, recoveryCodes: RecoveryCodes }), 400, 401, 403, 409),
      },
    },
    async (request, reply) => ({
      data: await proving(request, reply, ({ id, address }, renewal) =>
        app.secondFactor.registerPasskey(id, request.body.name, request.body.response, app.relyingParty(request), address, renewal),
      ),
    }),
  );

  app.put(
    '/passkeys/:id',
    {
      config: enrolment,
      schema: {
        operationId: 'renamePasskey',
        summary: 'Rename one of my passkeys',
        params: Type.Object({ id: PositiveInt }),
        body: Body({ name: PasskeyName }),
        response: responses(Type.Boolean(), 400, 401, 403, 404),
      },
    },
    async (request) => {
      await app.secondFactor.renamePasskey(signedInEmployee(request).id, request.params.id, request.body.name);
      return { data: true };
    },
  );

  deleteByIdRoute(
    app,
    ['removePasskey', 'Remove one of my passkeys', '/passkeys/:id'],
    [404, 409],
    async (passkeyId, request) => {
      const employee = who(request);
      await app.secondFactor.removePasskey(employee.id, passkeyId, employee.address, employee.familyId);
    },
    { config: sensitive, description: `${STEP_UP_NOTE} ${ENDS_OTHER_SESSIONS}` },
  );

  app.post(
    '/recovery-codes',
    {
      config: sensitive,
      schema: {
        operationId: 'renewRecoveryCodes',
        summary: 'Ten new recovery codes, shown once; the old ones stop working',
        description: `${STEP_UP_NOTE} ${ENDS_OTHER_SESSIONS}`,
        response: responses(Type.Array(Type.String()), 401, 403, 404),
      },
    },
    async (request) => {
      const employee = who(request);
      return { data: await app.secondFactor.renewRecoveryCodes(employee.id, employee.address, employee.familyId) };
    },
  );

  app.post(
    '/step-up/options',
    {
      config: enrolment,
      schema: {
        operationId: 'stepUpOptions',
        summary: 'Which second factors I can confirm myself with, with a passkey challenge if I have passkeys',
        response: responses(SecondFactorOptions, 401, 403),
      },
    },
    async (request) => {
      const { id, familyId } = signedInEmployee(request);
      return { data: await app.secondFactor.proofOptions(id, app.relyingParty(request), { session: familyId }) };
    },
  );

  app.post(
    '/step-up',
    {
      config: enrolment,
      schema: {
        operationId: 'stepUp',
        summary: 'Confirm it is me with a second factor: the sensitive actions are open for the next 10 minutes',
        description: `Wrong answers count as at sign-in; the ${STEP_UP_FAILURES_PER_SESSION}th wrong one in a row ends this session (401). ${RENEWS_TOKENS}`,
        body: SecondFactorProof,
        response: responses(Type.Object({ stepUpUntil: Type.String({ format: 'date-time' }) }), 400, 401, 403, 404, 409, 429),
      },
    },
    async (request, reply) => {
      const { familyId } = await proving(request, reply, async (employee, renewal) => {
        const rp = app.relyingParty(request);
        await app.secondFactor.prove(employee.id, request.body, { rp, address: employee.address, session: employee.familyId });
        await renewal.renewAlone();
        return employee;
      });
      return { data: { stepUpUntil: (await app.secondFactor.stepUpUntil(familyId)) ?? new Date().toISOString() } };
    },
  );
};

export default secondFactorRoutes;
