import type { ReactNode } from 'react';

export interface SubmitButtonProps {
  /** Its request runs: it cannot be pressed again, and says `busyLabel` (such as 'Logging in...') if given. */
  busy: boolean;
  busyLabel?: string;
  /** The form is not ready to send (nothing changed, a field missing): a real `disabled`. */
  notReady?: boolean;
  look?: 'primary' | 'danger' | 'plain';
  describedBy?: string;
  children: ReactNode;
}

/**
 * A form's submit button. While busy it is `aria-disabled` and cancels its click (the Enter key's
 * implicit submission clicks it too) instead of being `disabled`: a browser moves the focus off a
 * button disabled while focused, to the page's start, so a keyboard user who pressed it and is
 * refused would have to find the form again.
 */
export function SubmitButton({ busy, busyLabel, notReady, look = 'primary', describedBy, children }: SubmitButtonProps) {
  return (
    <button
      type="submit"
      className={look === 'plain' ? undefined : look}
      disabled={notReady}
      aria-disabled={busy || undefined}
      aria-busy={busy || undefined}
      aria-describedby={describedBy}
      onClick={(event) => {
        if (busy) event.preventDefault();
      }}
    >
      {busy && busyLabel ? busyLabel : children}
    </button>
  );
}
