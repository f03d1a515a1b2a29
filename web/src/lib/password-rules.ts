// The password rules of the API (@bookshop/rules), checked by the forms before anything is sent:
// the same rules, the same messages, one definition.
import { type FormProblem, PASSWORD_MIN_LENGTH, passwordProblem } from '@bookshop/rules';

export const PASSWORD_HINT = `At least ${PASSWORD_MIN_LENGTH} characters; not a common password, and not your e-mail.`;

/**
 * The first rule a new password breaks, or null. The list of common passwords (about 100 KB
 * compressed) is loaded on first use, so only screens with a password form download it.
 */
export async function newPasswordProblem(password: string, account?: string): Promise<string | null> {
  const { isCommonPassword } = await import('@bookshop/rules/common-passwords');
  return passwordProblem(password, { account, isCommon: isCommonPassword });
}

/** The same, as a form's problem about the field the new password is typed in. */
export async function newPasswordFormProblem<Field extends string>(
  field: Field,
  password: string,
  account?: string,
): Promise<FormProblem<Field>> {
  const problem = await newPasswordProblem(password, account);
  return problem === null ? { problem } : { problem, fields: [field] };
}
