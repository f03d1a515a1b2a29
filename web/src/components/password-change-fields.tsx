import { PASSWORD_HINT } from '../lib/password-rules';

/** The current and new password inputs that both account screens use. */
export function PasswordChangeFields({
  value,
  onChange,
  labels = ['Current password', 'New password'],
}: {
  value: { oldPassword: string; newPassword: string };
  onChange: (value: { oldPassword: string; newPassword: string }) => void;
  labels?: [string, string];
}) {
  return (
    <>
      <label>
        {labels[0]}
        <input
          type="password"
          autoComplete="current-password"
          value={value.oldPassword}
          onChange={(e) => onChange({ ...value, oldPassword: e.target.value })}
        />
      </label>
      <label>
        {labels[1]}
        <input
          type="password"
          autoComplete="new-password"
          value={value.newPassword}
          onChange={(e) => onChange({ ...value, newPassword: e.target.value })}
          aria-describedby="new-password-hint"
        />
        <small id="new-password-hint">{PASSWORD_HINT}</small>
      </label>
    </>
  );
}
