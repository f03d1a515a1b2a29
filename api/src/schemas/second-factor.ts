// The staff second factor's bodies and answers (issue 31). WebAuthn's JSON is spelled out field by
// field: unknown properties are stripped from bodies, and answers send only what a schema names.
import { PASSKEY_NAME_MAX } from '@bookshop/rules';
import { Type } from 'typebox';
import { Body } from './common.ts';

const Base64Url = Type.String({ maxLength: 4096, description: 'base64url' });
const Credential = Type.Object({
  id: Base64Url,
  type: Type.String(),
  transports: Type.Optional(Type.Array(Type.String())),
});
const Attachment = Type.Union([Type.Literal('platform'), Type.Literal('cross-platform')]);
const Extensions = Type.Object({ credProps: Type.Optional(Type.Boolean()) });

/** What the browser passes to navigator.credentials.get (SimpleWebAuthn's startAuthentication). */
export const PasskeyRequestOptions = Type.Object(
  {
    challenge: Type.String(),
    rpId: Type.Optional(Type.String()),
    timeout: Type.Optional(Type.Integer()),
    allowCredentials: Type.Optional(Type.Array(Credential)),
    userVerification: Type.Optional(Type.String()),
  },
  { description: 'PublicKeyCredentialRequestOptionsJSON (WebAuthn)' },
);

/** What the browser passes to navigator.credentials.create (SimpleWebAuthn's startRegistration). */
export const PasskeyCreationOptions = Type.Object(
  {
    challenge: Type.String(),
    rp: Type.Object({ name: Type.String(), id: Type.Optional(Type.String()) }),
    user: Type.Object({ id: Type.String(), name: Type.String(), displayName: Type.String() }),
    pubKeyCredParams: Type.Array(Type.Object({ alg: Type.Integer(), type: Type.String() })),
    timeout: Type.Optional(Type.Integer()),
    attestation: Type.Optional(Type.String()),
    excludeCredentials: Type.Optional(Type.Array(Credential)),
    authenticatorSelection: Type.Optional(
      Type.Object({
        authenticatorAttachment: Type.Optional(Type.String()),
        residentKey: Type.Optional(Type.String()),
        requireResidentKey: Type.Optional(Type.Boolean()),
        userVerification: Type.Optional(Type.String()),
      }),
    ),
    extensions: Type.Optional(Extensions),
    hints: Type.Optional(Type.Array(Type.String())),
  },
  { description: 'PublicKeyCredentialCreationOptionsJSON (WebAuthn)' },
);

/** A passkey's answer to a sign-in or step-up challenge (SimpleWebAuthn's AuthenticationResponseJSON). */
export const PasskeyAssertion = Type.Object({
  id: Base64Url,
  rawId: Base64Url,
  type: Type.Literal('public-key'),
  authenticatorAttachment: Type.Optional(Attachment),
  clientExtensionResults: Type.Object({}),
  response: Type.Object({
    clientDataJSON: Base64Url,
    authenticatorData: Base64Url,
    signature: Base64Url,
    userHandle: Type.Optional(Base64Url),
  }),
});

/** A new passkey's answer (SimpleWebAuthn's RegistrationResponseJSON). */
export const PasskeyAttestation = Type.Object({
  id: Base64Url,
  rawId: Base64Url,
  type: Type.Literal('public-key'),
  authenticatorAttachment: Type.Optional(Attachment),
  clientExtensionResults: Type.Object({ credProps: Type.Optional(Type.Object({ rk: Type.Optional(Type.Boolean()) })) }),
  response: Type.Object({
    clientDataJSON: Base64Url,
    attestationObject: Type.String({ maxLength: 16384 }),
    authenticatorData: Type.Optional(Type.String({ maxLength: 16384 })),
    transports: Type.Optional(Type.Array(Type.String({ maxLength: 40 }), { maxItems: 10 })),
    publicKeyAlgorithm: Type.Optional(Type.Integer()),
    publicKey: Type.Optional(Type.String({ maxLength: 16384 })),
  }),
});

/** A second factor: the authenticator app's code, a recovery code, or a passkey's answer. */
export const SecondFactorProof = Body({
  code: Type.Optional(Type.String({ maxLength: 40, description: "The authenticator app's 6 digits, or a recovery code" })),
  passkey: Type.Optional(PasskeyAssertion),
});

export const SecondFactorOptions = Type.Object({
  totp: Type.Boolean({ description: 'An authenticator app code is accepted' }),
  recoveryCodes: Type.Boolean({ description: 'The employee has unused recovery codes' }),
  passkey: Type.Union([PasskeyRequestOptions, Type.Null()], { description: 'The challenge for one of their passkeys, if they have any' }),
});

export const Passkey = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  lastUsedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

export const SecondFactorStatus = Type.Object({
  totp: Type.Boolean({ description: 'An authenticator app is set up and confirmed' }),
  passkeys: Type.Array(Passkey),
  recoveryCodesLeft: Type.Integer(),
  required: Type.Boolean({ description: 'This employee must set up a second factor before anything else (STAFF_MFA=required, Admins)' }),
  stepUpUntil: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'Until when the sensitive actions are open without asking for the second factor again',
  }),
});

export const RecoveryCodes = Type.Union([Type.Array(Type.String()), Type.Null()], {
  description: 'Ten one-time recovery codes, shown this once (null when the employee already had a second factor)',
});

export const PasskeyName = Type.String({ minLength: 1, maxLength: PASSKEY_NAME_MAX });
