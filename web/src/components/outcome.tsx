// What an action came to, shown where its form or button was.
import { type ReactNode, useEffect, useRef } from 'react';

/**
 * A status that replaces the form that asked for it: it takes the focus as it appears (the form's
 * focused button is gone with the form, which would drop the focus to the page's start), so a screen
 * reader reads it at once and the keyboard goes on from there.
 */
export function Outcome({ children, className }: { children: ReactNode; className?: string }) {
  const outcome = useRef<HTMLParagraphElement>(null);
  useEffect(() => outcome.current?.focus(), []);
  return (
    <p ref={outcome} tabIndex={-1} role="status" className={className}>
      {children}
    </p>
  );
}
