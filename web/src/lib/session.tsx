// Spec section 4: the logged-in flag, the stored user type, and token refresh on start and every
// 540000 ms for both sessions. A session found ended by any call (see sessionEvents) signs that
// audience out at once: client screens then offer login, and an employee is sent to /login.
import { type QueryKey, type UseQueryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, use, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import {
  type Audience,
  api,
  forgetRefreshWait,
  refreshSession,
  refreshWaitMs,
  SESSION_EXPIRED,
  sessionEvents,
  unwrap,
} from '../api/client';
import { TOKEN_REFRESH_MS } from './constants';
import { paths } from './paths';
import { clientKeys, employeeRoot } from './query-keys';
import { storage } from './storage';

interface Session {
  /** The storefront (client) session is live. */
  loggedIn: boolean;
  /** 'Client', or the employee type ('Admin', 'Seller') returned by login. */
  userType: string;
  /** The start-up refresh has answered. */
  ready: boolean;
  signedIn(userType: string): void;
  /** An action found the client no longer signed in. */
  markSignedOut(): void;
  signOut(): Promise<void>;
}

const SessionContext = createContext<Session | null>(null);

/**
 * A refresh the shop could not answer is tried again this soon, this many times: all within the
 * server's 30 s reuse interval (REFRESH_REUSE_INTERVAL_SECONDS), as its token may have been spent by an
 * answer that never arrived. Later, a spent token revokes the session as a theft would.
 */
const REFRESH_RETRY_MS = 5_000;
const REFRESH_RETRIES = 4;
/** Then, while the shop stays unreachable (a long deploy), once a minute until it answers. */
const REFRESH_RETRY_LATER_MS = 60_000;

export const SESSION_ENDED_MESSAGE = 'Your session has ended. Please log in again.';

export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [loggedIn, setLoggedIn] = useState(false);
  const [userType, setUserTypeState] = useState(storage.getUserType);
  const [ready, setReady] = useState(false);
  // Bumped by every sign-in and sign-out: a refresh that started before one must not undo it.
  const generation = useRef(0);

  const setUserType = useCallback((type: string) => {
    storage.setUserType(type);
    setUserTypeState(type);
  }, []);

  // Read through a ref: useNavigate's function changes with the location, and the refresh timer
  // below must not restart on every navigation.
  const navigateNow = useNavigate();
  const navigate = useRef(navigateNow);
  useEffect(() => {
    navigate.current = navigateNow;
  }, [navigateNow]);
  /** The back-office session is over: back to the storefront's login, saying why. */
  const employeeSessionEnded = useCallback(() => {
    setUserType('Client');
    queryClient.removeQueries({ queryKey: employeeRoot });
    navigate.current(paths.login, { replace: true, state: { message: SESSION_ENDED_MESSAGE } });
  }, [setUserType, queryClient]);

  /**
   * The shopper's session is over: what the screens hold of it goes, and so does the shipping address
   * kept for the next checkout, which the next person to sign in on this browser would see otherwise.
   */
  const clientSessionEnded = useCallback(() => {
    setLoggedIn(false);
    queryClient.removeQueries({ queryKey: clientKeys.all });
    storage.forgetShippingAddress();
  }, [queryClient]);

  useEffect(() => {
    const onExpired = (event: Event) => {
      const audience = (event as CustomEvent<Audience>).detail;
      generation.current += 1;
      if (audience === 'Client') {
        clientSessionEnded();
      } else if (storage.getUserType() !== 'Client') {
        employeeSessionEnded();
      }
    };
    sessionEvents.addEventListener(SESSION_EXPIRED, onExpired);
    return () => sessionEvents.removeEventListener(SESSION_EXPIRED, onExpired);
  }, [clientSessionEnded, employeeSessionEnded]);

  useEffect(() => {
    let cancelled = false;
    /** A refresh's verdict: the user type, null when refused, or undefined when the shop could not answer. */
    const verdict = (audience: Audience): Promise<string | null | undefined> => refreshSession(audience).catch(() => undefined);
    const refreshBoth = async () => {
      const started = generation.current;
      const [client, employee] = await Promise.all([verdict('Client'), verdict('Employee')]);
      if (cancelled) return;
      setReady(true);
      if (started !== generation.current) return;
      // A refresh the shop could not answer (offline, busy, a restart) changes nothing: the next
      // one, or the next call, finds out. Only a refused one ends the session.
      if (client !== undefined) setLoggedIn(client === 'Client');
      if (storage.getUserType() !== 'Client' && employee !== undefined) {
        if (employee) setUserType(employee);
        else employeeSessionEnded();
      }
      // Asked again soon rather than at the next turn: a client who opened the shop in the blip
      // would otherwise look signed out for nine minutes.
      clearTimeout(retry);
      const unanswered = client === undefined || employee === undefined;
      retries = unanswered ? retries + 1 : 0;
      if (unanswered) {
        const soon = retries <= REFRESH_RETRIES ? REFRESH_RETRY_MS : REFRESH_RETRY_LATER_MS;
        // Not before the shop's Retry-After: a refresh asked sooner is not sent at all.
        retry = setTimeout(refreshBoth, Math.max(soon, refreshWaitMs('Client'), refreshWaitMs('Employee')));
      }
    };
    let retry: ReturnType<typeof setTimeout> | undefined;
    let retries = 0;
    void refreshBoth();
    const timer = setInterval(refreshBoth, TOKEN_REFRESH_MS);
    return () => {
      cancelled = true;
      clearInterval(timer);
      clearTimeout(retry);
    };
  }, [setUserType, employeeSessionEnded]);

  const value = useMemo<Session>(
    () => ({
      loggedIn,
      userType,
      ready,
      signedIn: (type) => {
        generation.current += 1;
        forgetRefreshWait(type === 'Client' ? 'Client' : 'Employee');
        // A sign-in starts with no address kept from before: the last shopper's, on a shared browser,
        // whose session may have ended with the shop closed (a failed refresh cannot tell that from an
        // outage, so it forgets nothing).
        storage.forgetShippingAddress();
        setUserType(type);
        if (type === 'Client') setLoggedIn(true);
        void queryClient.invalidateQueries();
      },
      markSignedOut: () => {
        generation.current += 1;
        forgetRefreshWait('Client');
        clientSessionEnded();
      },
      signOut: async () => {
        generation.current += 1;
        forgetRefreshWait();
        await unwrap(api.DELETE('/api/public/authentication/cookies/')).catch(() => {});
        clientSessionEnded();
        setUserType('Client');
        queryClient.removeQueries({ queryKey: employeeRoot });
      },
    }),
    [loggedIn, userType, ready, setUserType, queryClient, clientSessionEnded],
  );
  return <SessionContext value={value}>{children}</SessionContext>;
}

export function useSession(): Session {
  const session = use(SessionContext);
  if (!session) throw new Error('useSession outside SessionProvider');
  return session;
}

/** A read of the signed-in client's own data: it runs only while the storefront session is live. */
export function useClientQuery<Data, Selected = Data, Key extends QueryKey = QueryKey>(
  options: UseQueryOptions<Data, Error, Selected, Key>,
) {
  const { loggedIn } = useSession();
  return useQuery({ ...options, enabled: loggedIn });
}
