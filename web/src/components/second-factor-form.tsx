// The second factor asked for (sign-in's second step, a step-up): the code of an authenticator app
// or a recovery code, typed; or, for someone with passkeys, a passkey through the browser's dialog.
import { type ReactNode, useId, useState } from 'react';
import { BusyButton, SubmitButton } from './busy-button';

export function SecondFactorForm({
  submitLabel,
  busy,
  problem,
  onCode,
  onPasskey,
  children,
}: {
  submitLabel: string;
  busy: boolean;
  problem: string | null;
  onCode: (code: string) => void;
  /** Offered when the person has passkeys. */
  onPasskey?: () => void;
  /** More actions beside them (Cancel). */
  children?: ReactNode;
}) {
  const [code, setCode] = useState('');
  // The problem is the typed code's only when a code was what was last given (not a passkey).
  const [gave, setGave] = useState<'code' | 'passkey'>('code');
  const codeRefused = problem !== null && gave === 'code';
  const problemId = useId();
  return (
    <form
      className="form"
      onSubmit={(event) => {
        event.preventDefault();
        setGave('code');
        onCode(code);
      }}
    >
      <label>
        Code from your authenticator app, or a recovery code
        <input
          value={code}
          onChange={(e) => setCode(e.target.value)}
          autoComplete="one-time-code"
          required
          data-autofocus
          aria-invalid={codeRefused}
          aria-describedby={codeRefused ? problemId : undefined}
        />
      </label>
      {problem && (
        <p role="alert" className="notice notice-error" id={problemId}>
          {problem}
        </p>
      )}
      <div className="actions">
        <SubmitButton busy={busy}>{submitLabel}</SubmitButton>
        {onPasskey && (
          <BusyButton
            busy={busy}
            onClick={() => {
              setGave('passkey');
              onPasskey();
            }}
          >
            Use a passkey
          </BusyButton>
        )}
        {children}
      </div>
    </form>
  );
}
