// /login/second-factor (beyond the spec): the sign-in's second step for an employee with a second
// factor. No session exists until it is given: the code of their authenticator app, a recovery
// code, or one of their passkeys.
import { useState } from 'react';
import { Navigate, useNavigate } from 'react-router-dom';
import { ApiError } from '../../api/client';
import { SecondFactorForm, type SecondFactorProblem, secondFactorProblem } from '../../components/second-factor-form';
import { useDocumentTitle } from '../../lib/document-title';
import { failureReason } from '../../lib/failure-reason';
import type { LoginState } from '../../lib/login-redirect';
import { paths } from '../../lib/paths';
import { useSession } from '../../lib/session';
import { useGiveSecondFactor, useSecondFactorOptions } from './api/second-factor-sign-in';

const EXPIRED: LoginState = { message: 'This sign-in has expired. Please sign in again.' };

export default function SecondFactorPage() {
  useDocumentTitle('Confirm your sign-in');
  const { signedIn } = useSession();
  const navigate = useNavigate();
  const options = useSecondFactorOptions();
  const give = useGiveSecondFactor();
  const [problem, setProblem] = useState<SecondFactorProblem | null>(null);

  if (options.isError) {
    const expired = options.error instanceof ApiError && options.error.status === 401;
    return <Navigate to={paths.login} replace state={expired ? EXPIRED : { message: failureReason(options.error) }} />;
  }
  const answer = (proof: Parameters<typeof give.mutateAsync>[0]) => {
    setProblem(null);
    return give.mutateAsync(proof).then(
      (role) => {
        signedIn(role);
        navigate(paths.backoffice.dashboard);
      },
      (error) => {
        if (error instanceof ApiError && error.status === 401) navigate(paths.login, { replace: true, state: EXPIRED });
        else setProblem(secondFactorProblem(proof, error, 'The passkey was not used. Try again, or type a code.'));
      },
    );
  };
  const passkey = options.data?.passkey;

  return (
    <div className="narrow">
      <h1>Confirm your sign-in</h1>
      {options.isPending ? (
        <p className="muted">Loading...</p>
      ) : (
        <SecondFactorForm
          submitLabel="Verify"
          busy={give.isPending}
          problem={problem}
          onCode={(code) => void answer({ code })}
          onPasskey={passkey ? () => void answer({ passkey }) : undefined}
        />
      )}
    </div>
  );
}
