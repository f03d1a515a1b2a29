// Sending someone to /login remembers where they were, so that login brings them back there.
import { Navigate, useLocation, useNavigate } from 'react-router-dom';
import { paths } from './paths';

export interface LoginState {
  /** The page to return to after login. */
  from?: string;
  /** Why they were sent here (an ended session). */
  message?: string;
}

const here = (location: { pathname: string; search: string }) => `${location.pathname}${location.search}`;

/** For a screen that needs a signed-in client. */
export function LoginRedirect() {
  const location = useLocation();
  return <Navigate to={paths.login} replace state={{ from: here(location) } satisfies LoginState} />;
}

/** For an action that needs a signed-in client (Add to Cart). */
export function useSendToLogin() {
  const navigate = useNavigate();
  const location = useLocation();
  return () => navigate(paths.login, { state: { from: here(location) } satisfies LoginState });
}
