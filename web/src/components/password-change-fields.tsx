import type { UseFormRegister } from 'react-hook-form';
import { PASSWORD_HINT } from '../lib/password-rules';

export type PasswordChange = { oldPassword: string; newPassword: string };
export const NO_PASSWORDS: PasswordChange = { oldPassword: '', newPassword: '' };

/** The current and new password inputs that both account screens use, in their react-hook-form. */
export function PasswordChangeFields({
  register,
  labels = ['Current password', 'New password'],
}: {
  register: UseFormRegister<PasswordChange>;
  labels?: [string, string];
}) {
  return (
    <>
      <label>
        {labels[0]}
        <input type="password" autoComplete="current-password" {...register('oldPassword')} />
      </label>
      {/* The hint beside the label, not in it, where it was read as part of the field's name. */}
      <div className="field">
        <label>
          {labels[1]}
          <input type="password" autoComplete="new-password" {...register('newPassword')} aria-describedby="new-password-hint" />
        </label>
        <small id="new-password-hint">{PASSWORD_HINT}</small>
      </div>
    </>
  );
}
