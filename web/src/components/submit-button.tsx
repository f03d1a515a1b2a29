import type { ReactNode } from 'react';

/**
 * A form's primary submit button. While its request runs it cannot be pressed again and says what is
 * happening (`busyLabel`, such as 'Logging in...') in place of its label.
 */
export function SubmitButton({ busy, busyLabel, children }: { busy: boolean; busyLabel: string; children: ReactNode }) {
  return (
    <button type="submit" className="primary" disabled={busy}>
      {busy ? busyLabel : children}
    </button>
  );
}
