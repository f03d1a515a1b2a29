import type { ButtonHTMLAttributes, ReactNode } from 'react';

type BusyButtonProps = Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'disabled'> & {
  /** Its request runs: it cannot be pressed again, and says `busyLabel` (such as 'Logging in...') if given. */
  busy: boolean;
  busyLabel?: string;
  /** It cannot be pressed for another reason (nothing changed, no stock, a field missing): a real `disabled`. */
  notReady?: boolean;
  /**
   * It cannot be pressed now, yet may hold the focus, because pressing it is what made it so (a
   * quantity stepper at its end): `aria-disabled` with its click cancelled, as while busy.
   */
  atLimit?: boolean;
};

/**
 * A button whose press starts a request. While busy it is `aria-disabled` and cancels its click
 * instead of being `disabled`: a browser moves the focus off a button disabled while focused, to the
 * page's start, so a keyboard user who pressed it (and is refused, or wants to press its neighbour)
 * would have to find their place again.
 */
export function BusyButton({ busy, busyLabel, notReady, atLimit, onClick, children, type = 'button', ...button }: BusyButtonProps) {
  return (
    <button
      {...button}
      type={type}
      disabled={notReady}
      aria-disabled={busy || atLimit || undefined}
      aria-busy={busy || undefined}
      onClick={(event) => {
        if (busy || atLimit) event.preventDefault();
        else onClick?.(event);
      }}
    >
      {busy && busyLabel ? busyLabel : children}
    </button>
  );
}

/**
 * A form's submit button, busy as `BusyButton` is: its cancelled click cancels the Enter key's
 * implicit submission too, which clicks it.
 */
export function SubmitButton({
  look = 'primary',
  describedBy,
  children,
  ...state
}: Pick<BusyButtonProps, 'busy' | 'busyLabel' | 'notReady'> & {
  look?: 'primary' | 'danger' | 'plain';
  describedBy?: string;
  children: ReactNode;
}) {
  return (
    <BusyButton type="submit" className={look === 'plain' ? undefined : look} aria-describedby={describedBy} {...state}>
      {children}
    </BusyButton>
  );
}
