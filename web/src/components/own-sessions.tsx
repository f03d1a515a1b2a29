// "Your sessions" on both Account screens (the storefront's and the back-office's): where one is signed
// in, and a way to end the others, a phone left signed in or a browser no longer trusted (ASVS 5.0
// 7.5.2). Ending asks for the password, as the API does. The session one is using is never ended here:
// signing out ends it.
import { type FormEvent, useEffect, useRef, useState } from 'react';
import type { Schemas } from '../api/types';
import { failureReason } from '../lib/failure-reason';
import { dateTime } from '../lib/format';
import { SubmitButton } from './busy-button';
import { LoadError } from './load-error';
import { Notice, useNotice } from './notice';

type OwnSession = Schemas['OwnSession'];

const UNKNOWN_DEVICE = 'Unknown browser';
const nameOf = (session: OwnSession) => session.device ?? UNKNOWN_DEVICE;
const sessionsWord = (count: number) => (count === 1 ? '1 session' : `${count} sessions`);

export function OwnSessions({
  sessions,
  end,
}: {
  /** The list's query (its data, and its failure to load). */
  sessions: { data?: OwnSession[]; isError: boolean; error: unknown; refetch: () => unknown };
  /** The audience's end-sessions mutation. */
  end: { mutateAsync: (body: { sessionIds: string[]; password: string }) => Promise<{ ended: number }>; isPending: boolean };
}) {
  const [notice, show] = useNotice();
  // The sessions the person chose to end, waiting for the password.
  const [chosen, setChosen] = useState<string[] | null>(null);
  const [password, setPassword] = useState('');
  const passwordField = useRef<HTMLInputElement>(null);
  const others = sessions.data?.filter((session) => !session.current) ?? [];
  const ending = chosen?.length === 1 ? others.find((session) => session.id === chosen[0]) : undefined;
  // The form opens below the list: the password is what comes next.
  useEffect(() => {
    if (chosen) passwordField.current?.focus();
  }, [chosen]);

  const choose = (ids: string[]) => {
    setChosen(ids);
    setPassword('');
  };
  const confirm = async (event: FormEvent) => {
    event.preventDefault();
    if (!chosen) return;
    if (!password) return show('Enter your password to end sessions.', 'error');
    try {
      const { ended } = await end.mutateAsync({ sessionIds: chosen, password });
      setChosen(null);
      setPassword('');
      show(ended === 0 ? 'Those sessions had already ended.' : `Ended ${sessionsWord(ended)}.`);
    } catch (error) {
      show('Failed to end sessions.', 'error', failureReason(error));
    }
  };

  return (
    <section aria-labelledby="own-sessions-title">
      <h2 id="own-sessions-title">Your sessions</h2>
      <p className="muted">Where you are signed in now. End any you do not recognise or no longer use.</p>
      <Notice notice={notice} />
      {sessions.data ? (
        <ul className="own-sessions">
          {sessions.data.map((session) => (
            <li key={session.id}>
              <strong>{nameOf(session)}</strong>
              {session.current && <span className="badge">This session</span>}
              <span className="muted">
                Signed in {dateTime(session.startedAt)}; last active {dateTime(session.lastActiveAt)}
              </span>
              {!session.current && (
                <button
                  type="button"
                  aria-label={`End session: ${nameOf(session)}, last active ${dateTime(session.lastActiveAt)}`}
                  onClick={() => choose([session.id])}
                >
                  End
                </button>
              )}
            </li>
          ))}
        </ul>
      ) : sessions.isError ? (
        <LoadError what="your sessions" error={sessions.error} onRetry={() => void sessions.refetch()} />
      ) : (
        <p className="muted">Loading...</p>
      )}
      {others.length > 1 && (
        <button type="button" onClick={() => choose(others.map((session) => session.id))}>
          End all other sessions
        </button>
      )}
      {chosen && (
        <form className="form" aria-label="End sessions" onSubmit={confirm}>
          <p>
            {ending
              ? `Enter your password to end the session on ${nameOf(ending)}, last active ${dateTime(ending.lastActiveAt)}.`
              : `Enter your password to end ${chosen.length === 1 ? 'another session' : `${chosen.length} other sessions`}.`}
          </p>
          <label>
            Password
            <input
              ref={passwordField}
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(event) => setPassword(event.target.value)}
            />
          </label>
          <div className="actions">
            <SubmitButton busy={end.isPending} look="danger">
              End {sessionsWord(chosen.length)}
            </SubmitButton>
            <button type="button" onClick={() => setChosen(null)}>
              Cancel
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
