import { type FormEvent, useCallback, useRef, useState } from 'react';

/**
 * A form whose call runs once at a time: while it runs, `busy` is true (its button shows it and is
 * disabled) and further submits are ignored, so a double click adds one copy, not two.
 */
export function useSubmitOnce() {
  const [busy, setBusy] = useState(false);
  // A ref, not only state: a second click can arrive before React re-renders the disabled button.
  const running = useRef(false);
  const handle = useCallback(
    (submit: (event: FormEvent) => Promise<unknown>) => (event: FormEvent) => {
      event.preventDefault();
      if (running.current) return;
      running.current = true;
      setBusy(true);
      void submit(event).finally(() => {
        running.current = false;
        setBusy(false);
      });
    },
    [],
  );
  return { busy, handle };
}
