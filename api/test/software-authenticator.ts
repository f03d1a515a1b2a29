// A passkey made in the test process, for the API's registration without a browser: a P-256 key and
// the browser's answer to the creation options ("none" attestation), byte for byte as WebAuthn
// defines it, so @simplewebauthn/server verifies it as it would a real one. The browser's own path
// runs in Chromium's virtual authenticator (e2e/second-factor.spec.ts).
import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';

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

/** A new passkey's answer to `options`, as a browser at `origin` would send it (RegistrationResponseJSON). */
export function registerSoftwarePasskey(options: CreationOptions, origin: string) {
  const rpId = options.rp.id ?? new URL(origin).hostname;
  const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
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
  const credentialId = randomBytes(16);
  const credentialIdLength = Buffer.alloc(2);
  credentialIdLength.writeUInt16BE(credentialId.length);
  const authData = Buffer.concat([
    createHash('sha256').update(rpId).digest(),
    Buffer.from([0x45]), // user present, user verified, attested credential data included
    Buffer.alloc(4), // signature counter
    Buffer.alloc(16), // AAGUID: none
    credentialIdLength,
    credentialId,
    coseKey,
  ]);
  const clientDataJSON = Buffer.from(JSON.stringify({ type: 'webauthn.create', challenge: options.challenge, origin, crossOrigin: false }));
  return {
    id: base64url(credentialId),
    rawId: base64url(credentialId),
    type: 'public-key' as const,
    response: {
      clientDataJSON: base64url(clientDataJSON),
      attestationObject: base64url(cbor({ fmt: 'none', attStmt: {}, authData })),
      transports: ['internal'],
    },
    clientExtensionResults: {},
  };
}
