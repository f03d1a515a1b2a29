import { FORM_MESSAGES } from '@bookshop/rules';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { ApiError } from '../../api/client';
import { BusyButton, SubmitButton } from '../../components/busy-button';
import { Notice, useNotice } from '../../components/notice';
import { useDocumentTitle } from '../../lib/document-title';
import { failureReason } from '../../lib/failure-reason';
import type { LoginState } from '../../lib/login-redirect';
import { paths } from '../../lib/paths';
import { useSession } from '../../lib/session';
import { useLogIn } from './api/log-in';
import { usePasskeySignIn } from './api/passkey-sign-in';

/** /login (spec 2.8). An employee login switches the app to the back-office. */
export default function LoginPage() {
  useDocumentTitle('Login');
  const { signedIn } = useSession();
  const navigate = useNavigate();
  const { from, message } = (useLocation().state ?? {}) as LoginState;
  const logIn = useLogIn();
  const passkeySignIn = usePasskeySignIn();
  const { register, handleSubmit } = useForm({ defaultValues: { account: '', password: '' } });
  // Spec 4: messages disappear after 3 s.
  const [notice, show] = useNotice();
  // Why one was sent here (a session that ended), said as every other message is.
  useEffect(() => {
    if (message) show(message, 'error');
  }, [message, show]);

  const submit = handleSubmit(async (credentials) => {
    try {
      const userType = await logIn.mutateAsync(credentials);
      // An employee with a second factor gives it next; no session exists until then.
      if (userType === 'SecondFactor') return navigate(paths.secondFactor);
      signedIn(userType);
      // Back to where login was asked for (never back to /login itself).
      navigate(
        userType === 'Client' ? (from && !from.toLowerCase().startsWith(paths.login) ? from : paths.home) : paths.backoffice.dashboard,
      );
    } catch (err) {
      // Only a refusal of the credentials reads as one: an unreachable shop, a throttle or an outage says so.
      const status = err instanceof ApiError ? err.status : 0;
      show(status === 401 ? FORM_MESSAGES.invalidLogin : (failureReason(err) ?? FORM_MESSAGES.invalidLogin), 'error');
    }
  });

  return (
    <div className="narrow">
      <h1>Login</h1>
      <form className="form" onSubmit={submit}>
        <label>
          Account <input type="email" autoComplete="username" {...register('account')} required />
        </label>
        <label>
          Password <input type="password" autoComplete="current-password" {...register('password')} required />
        </label>
        <Notice notice={notice} />
        <SubmitButton busy={logIn.isPending} busyLabel="Logging in...">
          Login
        </SubmitButton>
      </form>
      <p>
        <BusyButton
          busy={passkeySignIn.isPending}
          onClick={() =>
            passkeySignIn.mutateAsync().then(
              (role) => {
                signedIn(role);
                navigate(paths.backoffice.dashboard);
              },
              (err) => show('Signing in with a passkey did not work.', 'error', failureReason(err)),
            )
          }
        >
          Staff: sign in with a passkey
        </BusyButton>
      </p>
      <p>
        <Link to={paths.forgotPassword}>Forgot password?</Link>
      </p>
      <p>
        New here? <Link to={paths.signup}>Sign up</Link>
      </p>
    </div>
  );
}
