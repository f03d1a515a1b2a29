import bcrypt from 'bcrypt';
import { badRequest } from '../../lib/errors.ts';
import { PASSWORD_MAX_BYTES, PASSWORD_MIN_LENGTH } from '../../lib/validation.ts';

/** Refuses what bcrypt would silently mishandle (over 72 bytes) and what is too short to protect anything. */
export function assertAcceptablePassword(password: string) {
  if (Buffer.byteLength(password, 'utf8') > PASSWORD_MAX_BYTES) throw badRequest('Password must be at most 72 bytes long.');
  if (password.length < PASSWORD_MIN_LENGTH) throw badRequest(`Password must be at least ${PASSWORD_MIN_LENGTH} characters long.`);
}

export const hashPassword = (password: string, cost: number) => bcrypt.hash(password, cost);

// Compared against when the account does not exist, so a wrong account costs as long as a wrong password.
const DUMMY_HASH = bcrypt.hashSync('not-a-real-password', 10);

export const verifyPassword = (password: string, hash: string | null | undefined) =>
  Buffer.byteLength(password, 'utf8') <= PASSWORD_MAX_BYTES
    ? bcrypt.compare(password, hash ?? DUMMY_HASH).then((ok) => ok && !!hash)
    : Promise.resolve(false);
