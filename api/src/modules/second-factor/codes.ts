// The pure parts of the second factor: TOTP (RFC 6238, through otpauth) with replay protection by
// time step, the TOTP secret's encryption at rest, and one-time recovery codes.
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes, randomInt } from 'node:crypto';
import * as OTPAuth from 'otpauth';

export const TOTP_PERIOD_SECONDS = 30;
/** Codes one step either side of now are accepted (a phone's clock a little off, a code typed slowly). */
export const TOTP_WINDOW = 1;
export const TOTP_ISSUER = 'Bookshop';
export const RECOVERY_CODE_COUNT = 10;

const totpOf = (base32: string, label = '') =>
  new OTPAuth.TOTP({
    issuer: TOTP_ISSUER,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: TOTP_PERIOD_SECONDS,
    secret: OTPAuth.Secret.fromBase32(base32),
  });

/** A new secret of 160 random bits, in base32 (what authenticator apps take typed in). */
export const newTotpSecret = () => new OTPAuth.Secret({ size: 20 }).base32;

/** The otpauth:// address a QR code carries for authenticator apps. */
export const otpauthUrl = (base32: string, account: string) => totpOf(base32, account).toString();

/** The code an authenticator shows at this moment (tests use it with a fixed clock). */
export const totpCode = (base32: string, timestamp = Date.now()) => totpOf(base32).generate({ timestamp });

/**
 * The time step of a right code, or null. A code of a step at or before `lastStep` (one already used)
 * is refused, so a code works once even within its window.
 */
export function acceptedTotpStep(base32: string, code: string, lastStep: number, timestamp = Date.now()): number | null {
  const token = code.replace(/\s/g, '');
  if (!/^\d{6}$/.test(token)) return null;
  const delta = totpOf(base32).validate({ token, timestamp, window: TOTP_WINDOW });
  if (delta === null) return null;
  const step = Math.floor(timestamp / 1000 / TOTP_PERIOD_SECONDS) + delta;
  return step > lastStep ? step : null;
}

/**
 * Text sealed (AES-256-GCM) under a key derived from JWT_SECRET for one use: TOTP secrets, so a copy of
 * the database alone yields no code, and the passkey sign-in's challenge, which the browser keeps for
 * the shop instead of a row. Changing JWT_SECRET makes every authenticator app enrol again: a secret
 * sealed under another key opens to null, which the service takes as no app rather than a fault.
 */
export function secretBox(serverSecret: string, use: 'totp-secret-v1' | 'passkey-sign-in-v1' = 'totp-secret-v1') {
  const key = Buffer.from(hkdfSync('sha256', serverSecret, 'bookshop', use, 32));
  return {
    seal(plain: string): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v1', iv.toString('base64url'), body.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
    },
    /** The secret, or null when it was sealed under another JWT_SECRET (or is not one of ours). */
    open(sealed: string): string | null {
      const [version, iv, body, tag] = sealed.split('.');
      if (version !== 'v1' || !iv || !body || !tag) return null;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
      } catch {
        // The authentication tag does not match this key: the secret cannot be read, and no code can match it.
        return null;
      }
    },
  };
}

// Recovery codes: 24 characters of an alphabet without look-alikes (118 random bits), in groups of
// four. ASVS 5.0 (6.5.2) lets a plain SHA-256 store a lookup secret of 112 bits or more: no guessing
// from the hash. Codes issued before were 16 characters (79 bits); they work until renewed.
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
export const RECOVERY_CODE_LENGTH = 24;
const EARLIER_RECOVERY_CODE_LENGTH = 16;

export const newRecoveryCodes = (count = RECOVERY_CODE_COUNT) =>
  Array.from({ length: count }, () => {
    const chars = Array.from({ length: RECOVERY_CODE_LENGTH }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join('');
    return chars.match(/.{4}/g)!.join('-');
  });

/** The stored form of a recovery code, as typed in any case and with or without its dashes and spaces. */
export const recoveryCodeHash = (code: string) => createHash('sha256').update(code.toLowerCase().replace(/[\s-]/g, '')).digest('hex');

/** A recovery code's shape (to tell it from a TOTP code). */
export const looksLikeRecoveryCode = (code: string) =>
  [RECOVERY_CODE_LENGTH, EARLIER_RECOVERY_CODE_LENGTH].includes(code.replace(/[\s-]/g, '').length);
