import { FORM_MESSAGES } from '@bookshop/rules';
import { type FormEvent, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { ApiError, api, unwrap } from '../../api/client';
import { Notice, useNotice } from '../../components/notice';
import { useDocumentTitle } from '../../lib/document-title';
import { failureReason } from '../../lib/failure-reason';
import type { LoginState } from '../../lib/login-redirect';
import { paths } from '../../lib/paths';
import { useSession } from '../../lib/session';

/** /login (spec 2.8). An employee login switches the app to the back-office. */
export default function LoginPage() {
  useDocumentTitle('Login');
  const { signedIn } = useSession();
  const navigate = useNavigate();
  const { from, message } = (useLocation().state ?? {}) as LoginState;
  const [account, setAccount] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  // Spec 4: messages disappear after 3 s.
  const [notice, show] = useNotice();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      const userType = await unwrap(api.POST('/api/public/authentication/login', { body: { account, password } }));
      signedIn(userType);
      // Back to where login was asked for (never back to /login itself).
      navigate(
        userType === 'Client' ? (from && !from.toLowerCase().startsWith(paths.login) ? from : paths.home) : paths.backoffice.dashboard,
      );
    } catch (err) {
      // Only a refusal of the credentials reads as one: an unreachable shop, a throttle or an outage says so.
      const status = err instanceof ApiError ? err.status : 0;
      show(status === 401 ? FORM_MESSAGES.invalidLogin : (failureReason(err) ?? FORM_MESSAGES.invalidLogin), 'error');
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="narrow">
      <h1>Login</h1>
      {message && (
        <p role="status" className="notice notice-error">
          {message}
        </p>
      )}
      <form className="form" onSubmit={submit}>
        <label>
          Account <input type="email" autoComplete="username" value={account} onChange={(e) => setAccount(e.target.value)} required />
        </label>
        <label>
          Password{' '}
          <input type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} required />
        </label>
        <Notice notice={notice} />
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Logging in...' : 'Login'}
        </button>
      </form>
      <p>
        New here? <Link to={paths.signup}>Sign up</Link>
      </p>
    </div>
  );
}
