// A passkey made in the test process, for the API without a browser: a P-256 key, the browser's answer
// to the creation options ("none" attestation) and its signed answers to a sign-in's challenge, byte
// for byte as WebAuthn defines them, so @simplewebauthn/server verifies them as it would a real one. The browser's own path
// runs in Chromium's virtual authenticator (e2e/second-factor.spec.ts).
import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';

type Cbor = number | string | Uint8Array | Map<number | string, Cbor> | { [key: string]: Cbor };

/** A CBOR item's head: its major type and argument (RFC 8949, section 3). */
function head(major: number, argument: number): Buffer {
  if (argument < 24) return Buffer.from([(major << 5) | argument]);
  if (argument < 0x100) return Buffer.from([(major << 5) | 24, argument]);
  if (argument < 0x10000) return Buffer.from([(major << 5) | 25, argument >> 8, argument & 0xff]);
  const four = Buffer.alloc(5);
  four[0] = (major << 5) | 26;
  four.writeUInt32BE(argument, 1);
  return four;
}

/** Just the CBOR that an attestation needs: integers, text, bytes and maps. */
function cbor(item: Cbor): Buffer {
  if (typeof item === 'number') return item >= 0 ? head(0, item) : head(1, -1 - item);
  if (typeof item === 'string') {
    const text = Buffer.from(item, 'utf8');
    return Buffer.concat([head(3, text.length), text]);
  }
  if (item instanceof Uint8Array) return Buffer.concat([head(2, item.length), item]);
  const entries = item instanceof Map ? [...item.entries()] : Object.entries(item);
  return Buffer.concat([head(5, entries.length), ...entries.flatMap(([key, value]) => [cbor(key), cbor(value)])]);
}

const base64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');

/** The creation options' fields this answer reads. */
interface CreationOptions {
  challenge: string;
  rp: { id?: string };
}

/** The request options' fields a sign-in's answer reads. */
interface RequestOptions {
  challenge: string;
  rpId?: string;
}

/**
 * A new passkey: its answer to the creation `options` as a browser at `origin` would send it
 * (RegistrationResponseJSON), and its answers to later sign-ins' challenges (AuthenticationResponseJSON)
 * as the user `userHandle` names, verified (a PIN, a fingerprint).
 */
export function softwarePasskey(origin: string) {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const credentialId = randomBytes(16);
  const rpIdHash = (rpId: string | undefined) =>
    createHash('sha256')
      .update(rpId ?? new URL(origin).hostname)
      .digest();

  /** The client data a browser at `origin` signs over for `type`'s ceremony. */
  const clientData = (type: 'webauthn.create' | 'webauthn.get', challenge: string) =>
    Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  /** The credential's answer around a ceremony's response, as the browser's JSON form has it. */
  const answer = <Response>(response: Response) => ({
    id: base64url(credentialId),
    rawId: base64url(credentialId),
    type: 'public-key' as const,
    response,
    clientExtensionResults: {},
  });

  function registration(options: CreationOptions) {
    const jwk = publicKey.export({ format: 'jwk' });
    // The public key as COSE: EC2 (1: 2) on P-256 (-1: 1) for ES256 (3: -7), its x and y.
    const coseKey = cbor(
      new Map<number, Cbor>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    );
    const credentialIdLength = Buffer.alloc(2);
    credentialIdLength.writeUInt16BE(credentialId.length);
    const authData = Buffer.concat([
      rpIdHash(options.rp.id),
      Buffer.from([0x45]), // user present, user verified, attested credential data included
      Buffer.alloc(4), // signature counter
      Buffer.alloc(16), // AAGUID: none
      credentialIdLength,
      credentialId,
      coseKey,
    ]);
    return answer({
      clientDataJSON: base64url(clientData('webauthn.create', options.challenge)),
      attestationObject: base64url(cbor({ fmt: 'none', attStmt: {}, authData })),
      transports: ['internal'],
    });
  }

  /**
   * User present and verified. The signature counter is 0 unless given, as synced passkeys keep none, so
   * nothing but the shop's own record of the challenge refuses the same answer sent twice.
   */
  function assertion(options: RequestOptions, userHandle: string, signatureCounter = 0) {
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(signatureCounter);
    const authenticatorData = Buffer.concat([rpIdHash(options.rpId), Buffer.from([0x05]), counter]);
    const clientDataJSON = clientData('webauthn.get', options.challenge);
    // ES256 signs authenticatorData followed by the client data's SHA-256, DER-encoded.
    const signature = sign('sha256', Buffer.concat([authenticatorData, createHash('sha256').update(clientDataJSON).digest()]), privateKey);
    return answer({
      clientDataJSON: base64url(clientDataJSON),
      authenticatorData: base64url(authenticatorData),
      signature: base64url(signature),
      userHandle: Buffer.from(userHandle).toString('base64url'),
    });
  }

  return { registration, assertion };
}

/** A new passkey's answer to `options`, as a browser at `origin` would send it (RegistrationResponseJSON). */
export const registerSoftwarePasskey = (options: CreationOptions, origin: string) => softwarePasskey(origin).registration(options);
