// An accessible dialog on the native <dialog>: focus moves in and is trapped, Escape closes it,
// and focus returns to what opened it (or to the main region, if that is gone). While `busy` (its
// request is out) nothing closes it: closed then, its request's outcome (an order placed, a refusal)
// would have no screen left to say it.
import { type ReactNode, useEffect, useRef } from 'react';
import { focusMainRegion } from '../lib/focus-on-navigation';

/** Opens it modal, or just open where the browser has no modal dialogs. */
const open = (dialog: HTMLDialogElement) => {
  if (typeof dialog.showModal === 'function') dialog.showModal();
  else dialog.setAttribute('open', '');
};

export function Modal({
  title,
  onClose,
  busy = false,
  children,
}: {
  title: string;
  onClose: () => void;
  busy?: boolean;
  children: ReactNode;
}) {
  const close = () => {
    if (!busy) onClose();
  };
  const ref = useRef<HTMLDialogElement>(null);
  const pressedOnBackdrop = useRef(false);
  useEffect(() => {
    const dialog = ref.current;
    const opener = document.activeElement as HTMLElement | null;
    if (dialog && !dialog.open) open(dialog);
    // The field the dialog asks for, where it names one; else the browser's choice (its first control, ×).
    dialog?.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    // Back to what opened it; when that left the page meanwhile (a row deleted, an order no longer
    // cancellable), to the screen's main region rather than the document's start.
    return () => {
      if (opener?.isConnected) opener.focus?.();
      else focusMainRegion();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      className="modal"
      aria-label={title}
      aria-busy={busy}
      onCancel={(e) => {
        e.preventDefault();
        close();
      }}
      // A click on the backdrop closes it, but only one pressed and released there: a press in a field
      // that drags out (selecting its text), or one on the backdrop that drags in, ends as a click on
      // the dialog too, and closing then lost what was typed.
      onPointerDown={(e) => {
        pressedOnBackdrop.current = e.target === ref.current;
      }}
      onPointerUp={(e) => {
        if (e.target !== ref.current) pressedOnBackdrop.current = false;
      }}
      onClick={(e) => {
        if (e.target === ref.current && pressedOnBackdrop.current) close();
        pressedOnBackdrop.current = false;
      }}
      // The browser may close it itself (a second Escape, whose cancel it no longer lets a page
      // prevent): busy, it opens again; else the page learns it is closed.
      onClose={() => {
        const dialog = ref.current;
        if (!busy) onClose();
        else if (dialog && !dialog.open) open(dialog);
      }}
    >
      <div className="modal-body">
        <button type="button" className="modal-close" aria-label="Close" onClick={close} disabled={busy}>
          ×
        </button>
        {children}
      </div>
    </dialog>
  );
}
