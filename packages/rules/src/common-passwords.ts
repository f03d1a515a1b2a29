// The most common passwords, from zxcvbn-ts's maintained list (a frequency-ranked list compiled
// from real password leaks). A separate entry point: about 100 KB compressed, so the web loads it
// only with a password form.
import { dictionary } from '@zxcvbn-ts/language-common';

const COMMON = new Set(dictionary['passwords-common'].map((p) => p.toLowerCase()));

/** True for a password on the list, in any letter case ("Password" is as guessable as "password"). */
export const isCommonPassword = (password: string) => COMMON.has(password.trim().toLowerCase());

export const COMMON_PASSWORD_COUNT = COMMON.size;
