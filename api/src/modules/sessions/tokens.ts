// Access tokens are short-lived HS256 JWTs; refresh tokens are random strings stored only as hashes.
import { createHash, createSecretKey, type KeyObject, randomBytes, randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { unauthorized } from '../../lib/errors.ts';
import type { Audience } from './session-repository.ts';

export const ACCESS_TOKEN_SECONDS = 10 * 60;
export const REFRESH_TOKEN_SECONDS = 7 * 24 * 60 * 60;

export interface AccessClaims {
  subjectId: number;
  familyId: string;
  audience: Audience;
  /** The session's generation the token was issued in (session_families.generation); 0 if it names none. */
  generation: number;
}

/**
 * The secret as a key object, made once. Given the string, jsonwebtoken first tries to read it as a
 * public (or private) key, which throws, on every call: 0.4 ms of CPU per signed-in request, against
 * 0.01 ms with the key object (issue 32's profile of the mix).
 */
const keys = new Map<string, KeyObject>();
function keyOf(secret: string) {
  let key = keys.get(secret);
  if (!key) {
    key = createSecretKey(Buffer.from(secret));
    keys.set(secret, key);
  }
  return key;
}

export function signAccessToken(secret: string, claims: AccessClaims): string {
  return jwt.sign({ fam: claims.familyId, gen: claims.generation }, keyOf(secret), {
    algorithm: 'HS256',
    subject: String(claims.subjectId),
    audience: claims.audience,
    expiresIn: ACCESS_TOKEN_SECONDS,
    jwtid: randomUUID(),
  });
}

/** Verifies signature (HS256 only: 'none' and other algorithms are refused), expiry and audience. */
export function verifyAccessToken(secret: string, token: string, audience: Audience): AccessClaims {
  try {
    const payload = jwt.verify(token, keyOf(secret), { algorithms: ['HS256'], audience }) as jwt.JwtPayload;
    const subjectId = Number(payload.sub);
    // Tokens signed before sessions had generations name none: they are of the first.
    const generation = payload.gen ?? 0;
    if (!Number.isInteger(subjectId) || typeof payload.fam !== 'string' || !Number.isSafeInteger(generation) || generation < 0)
      throw new Error('malformed claims');
    return { subjectId, familyId: payload.fam, audience, generation };
  } catch {
    throw unauthorized('Your session has expired. Please sign in again.');
  }
}

export const newRefreshToken = () => randomBytes(32).toString('base64url');
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
