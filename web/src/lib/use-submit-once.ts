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

/**
 * The same for calls each about their own thing (a row's delete): each key's call runs once at a
 * time, and other keys' beside it. `busy(key)` while its call runs.
 */
export function useRunOncePer<Key>() {
  const [running, setRunning] = useState<ReadonlySet<Key>>(new Set());
  // A ref, not only state, as above: the second click of a double click comes before the re-render.
  const runningNow = useRef(new Set<Key>());
  const run = useCallback((key: Key, call: () => Promise<unknown>) => {
    if (runningNow.current.has(key)) return;
    runningNow.current.add(key);
    setRunning(new Set(runningNow.current));
    void call().finally(() => {
      runningNow.current.delete(key);
      setRunning(new Set(runningNow.current));
    });
  }, []);
  return { busy: (key: Key) => running.has(key), run };
}
