import { passwordChangeProblem } from '@bookshop/rules';
import type { describedField } from '../lib/described-fields';
import { newPasswordFormProblem, PASSWORD_HINT } from '../lib/password-rules';
import { formRuleResolver } from '../lib/rule-resolver';

export type PasswordChange = { oldPassword: string; newPassword: string };
export const NO_PASSWORDS: PasswordChange = { oldPassword: '', newPassword: '' };

/**
 * Both passwords given, then the new one's rules, the API's, against the account's e-mail: the form's
 * `context`, which is known once the account has loaded.
 */
export const passwordChangeResolver = formRuleResolver<PasswordChange, { account?: string }>(async (passwords, context) => {
  const missing = passwordChangeProblem(passwords);
  return missing.problem === null ? newPasswordFormProblem('newPassword', passwords.newPassword, context?.account) : missing;
});

/** The current and new password inputs that both account screens use, in their react-hook-form. */
export function PasswordChangeFields({
  field,
  labels = ['Current password', 'New password'],
}: {
  /** The form's fields, each described by its own error (`useDescribedFields`). */
  field: ReturnType<typeof describedField<PasswordChange>>;
  labels?: [string, string];
}) {
  return (
    <>
      <label>
        {labels[0]}
        <input type="password" autoComplete="current-password" {...field('oldPassword')} />
      </label>
      {/* The hint beside the label, not in it, where it was read as part of the field's name. */}
      <div className="field">
        <label>
          {labels[1]}
          <input type="password" autoComplete="new-password" {...field('newPassword', 'new-password-hint')} />
        </label>
        <small id="new-password-hint">{PASSWORD_HINT}</small>
      </div>
    </>
  );
}
