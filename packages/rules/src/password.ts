// Password rules (OWASP ASVS 5.0, V6.2): long enough, not one of the most common passwords, not the
// account's own e-mail, and at least 64 characters in any script accepted. No composition rules.
// The API enforces them; the web forms show the same messages before anything is sent.

export const PASSWORD_MIN_LENGTH = 8;
/** Characters (code points), not bytes: the API pre-hashes, so bcrypt's 72-byte limit never applies. */
export const PASSWORD_MAX_LENGTH = 128;

export const PASSWORD_MESSAGES = {
  tooShort: `Password must be at least ${PASSWORD_MIN_LENGTH} characters long.`,
  tooLong: `Password must be at most ${PASSWORD_MAX_LENGTH} characters long.`,
  common: 'This password is too common. Please choose a less guessable one.',
  isEmail: 'Your password must not be your e-mail address.',
} as const;

/** Length in code points, so an emoji or a CJK character counts once. */
export const passwordLength = (password: string) => [...password].length;

/**
 * The first rule the password breaks, as the message to show, or null when it is acceptable.
 * `isCommon` comes from ./common-passwords (loaded lazily by the web, once by the API).
 */
export function passwordProblem(password: string, options: { account?: string; isCommon: (password: string) => boolean }): string | null {
  const length = passwordLength(password);
  if (length < PASSWORD_MIN_LENGTH) return PASSWORD_MESSAGES.tooShort;
  if (length > PASSWORD_MAX_LENGTH) return PASSWORD_MESSAGES.tooLong;
  const lower = password.trim().toLowerCase();
  const account = options.account?.trim().toLowerCase();
  if (account && (lower === account || lower === account.split('@')[0])) return PASSWORD_MESSAGES.isEmail;
  if (options.isCommon(password)) return PASSWORD_MESSAGES.common;
  return null;
}
