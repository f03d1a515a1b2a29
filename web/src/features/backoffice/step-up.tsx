// The step-up prompt (beyond the spec): the most sensitive actions (adding or deleting an employee,
// a role change, the clients list, running an import) answer 403 STEP_UP_REQUIRED when the
// employee's second factor was last used more than 10 minutes ago. The screen then asks for it
// here, and runs the action again once it is given.
import { type ReactNode, useState } from 'react';
import { ApiError } from '../../api/client';
import { Modal } from '../../components/modal';
import { SecondFactorForm, type SecondFactorProblem, secondFactorProblem } from '../../components/second-factor-form';
import { useSecondFactor } from './api/get-second-factor';
import { useStepUp } from './api/step-up';

export const needsStepUp = (error: unknown) => error instanceof ApiError && error.code === 'STEP_UP_REQUIRED';

/** Asks for the authenticator's code, a recovery code or a passkey; `onDone` once it was accepted. */
export function StepUpDialog({ onDone, onCancel }: { onDone: () => void; onCancel: () => void }) {
  const { data: status } = useSecondFactor();
  const stepUp = useStepUp();
  const [problem, setProblem] = useState<SecondFactorProblem | null>(null);
  const confirm = (proof: { code: string } | { passkey: true }) => {
    setProblem(null);
    return stepUp.mutateAsync(proof).then(onDone, (error) => setProblem(secondFactorProblem(proof, error, 'The passkey was not used.')));
  };
  return (
    // Busy while the proof is checked: closed then, the action would be refused though the proof was given.
    <Modal title="Confirm it's you" onClose={onCancel} busy={stepUp.isPending}>
      <h2>Confirm it's you</h2>
      <p>This needs your second factor, used within the last 10 minutes.</p>
      <SecondFactorForm
        submitLabel="Confirm"
        busy={stepUp.isPending}
        problem={problem}
        onCode={(code) => void confirm({ code })}
        onPasskey={status?.passkeys.length ? () => void confirm({ passkey: true }) : undefined}
      >
        <button type="button" onClick={onCancel} disabled={stepUp.isPending}>
          Cancel
        </button>
      </SecondFactorForm>
    </Modal>
  );
}

/**
 * Runs an action, and when the server asks for a step-up, asks for the second factor and runs it
 * once more. Render `prompt` where the screen's dialogs go.
 */
export function useStepUpGuard(): { guard: <T>(action: () => Promise<T>) => Promise<T>; prompt: ReactNode } {
  const [pending, setPending] = useState<((given: boolean) => void) | null>(null);
  const guard = async <T,>(action: () => Promise<T>): Promise<T> => {
    try {
      return await action();
    } catch (error) {
      if (!needsStepUp(error)) throw error;
      const given = await new Promise<boolean>((resolve) => setPending(() => resolve));
      if (!given) throw error;
      return action();
    }
  };
  const settle = (given: boolean) => {
    pending?.(given);
    setPending(null);
  };
  const prompt = pending ? <StepUpDialog onDone={() => settle(true)} onCancel={() => settle(false)} /> : null;
  return { guard, prompt };
}

/** In place of a read the server keeps behind a step-up: why, and the way to give it. */
export function StepUpNotice({ what, onConfirmed }: { what: string; onConfirmed: () => void }) {
  const [asking, setAsking] = useState(false);
  return (
    <div role="alert" className="load-error">
      <p>{what} need your second factor, used within the last 10 minutes.</p>
      <button type="button" className="primary" onClick={() => setAsking(true)}>
        Confirm it's you
      </button>
      {asking && (
        <StepUpDialog
          onDone={() => {
            setAsking(false);
            onConfirmed();
          }}
          onCancel={() => setAsking(false)}
        />
      )}
    </div>
  );
}
