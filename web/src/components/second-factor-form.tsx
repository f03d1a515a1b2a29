// The second factor asked for (sign-in's second step, a step-up): the code of an authenticator app
// or a recovery code, typed; or, for someone with passkeys, a passkey through the browser's dialog.
import { type ReactNode, useId, useState } from 'react';
import { ApiError } from '../api/client';
import { failureReason } from '../lib/failure-reason';
import { BusyButton, SubmitButton } from './busy-button';

export interface SecondFactorProblem {
  text: string;
  /** The typed code was what the shop refused: not a passkey, nor the network or a limit. */
  wrongCode: boolean;
}

/** Why a proof was not taken: the server's reason, or `passkeyNotUsed` when the browser's dialog gave none. */
export const secondFactorProblem = (proof: object, error: unknown, passkeyNotUsed: string): SecondFactorProblem => ({
  text: failureReason(error) ?? passkeyNotUsed,
  wrongCode: 'code' in proof && error instanceof ApiError && error.code === 'WRONG_SECOND_FACTOR',
});

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
  /** The last proof's refusal; the caller clears it when the next proof is given. */
  problem: SecondFactorProblem | null;
  onCode: (code: string) => void;
  /** Offered when the person has passkeys. */
  onPasskey?: () => void;
  /** More actions beside them (Cancel). */
  children?: ReactNode;
}) {
  const [code, setCode] = useState('');
  // The field is marked while it holds the code refused: typing another one takes the mark away.
  const [sentCode, setSentCode] = useState<string | null>(null);
  const codeRefused = problem?.wrongCode === true && code === sentCode;
  const problemId = useId();
  return (
    <form
      className="form"
      onSubmit={(event) => {
        event.preventDefault();
        setSentCode(code);
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
          {problem.text}
        </p>
      )}
      <div className="actions">
        <SubmitButton busy={busy}>{submitLabel}</SubmitButton>
        {onPasskey && (
          <BusyButton busy={busy} onClick={onPasskey}>
            Use a passkey
          </BusyButton>
        )}
        {children}
      </div>
    </form>
  );
}
