// Spec section 4: the logged-in flag, the stored user type, and token refresh on start and every
// 540000 ms for both sessions.
import { useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, use, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { api, refreshSession, unwrap } from '../../api/client';
import { TOKEN_REFRESH_MS } from '../../lib/constants';
import { storage } from '../../lib/storage';

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

  useEffect(() => {
    let cancelled = false;
    const refreshBoth = async () => {
      const started = generation.current;
      const [client, employee] = await Promise.all([
        refreshSession('Client'),
        storage.getUserType() !== 'Client' ? refreshSession('Employee') : Promise.resolve(null),
      ]);
      if (cancelled) return;
      setReady(true);
      if (started !== generation.current) return;
      setLoggedIn(client === 'Client');
      if (storage.getUserType() !== 'Client') {
        // An employee session that cannot be refreshed falls back to the storefront.
        if (employee) setUserType(employee);
        else setUserType('Client');
      }
    };
    void refreshBoth();
    const timer = setInterval(refreshBoth, TOKEN_REFRESH_MS);
    return () => {
      cancelled = true;
      clearInterval(timer);
    };
  }, [setUserType]);

  const value = useMemo<Session>(
    () => ({
      loggedIn,
      userType,
      ready,
      signedIn: (type) => {
        generation.current += 1;
        setUserType(type);
        if (type === 'Client') setLoggedIn(true);
        void queryClient.invalidateQueries();
      },
      markSignedOut: () => {
        generation.current += 1;
        setLoggedIn(false);
        queryClient.removeQueries({ queryKey: ['client'] });
      },
      signOut: async () => {
        generation.current += 1;
        await unwrap(api.DELETE('/api/public/authentication/cookies/')).catch(() => {});
        setLoggedIn(false);
        setUserType('Client');
        queryClient.removeQueries({ queryKey: ['client'] });
        queryClient.removeQueries({ queryKey: ['employee'] });
      },
    }),
    [loggedIn, userType, ready, setUserType, queryClient],
  );
  return <SessionContext value={value}>{children}</SessionContext>;
}

export function useSession(): Session {
  const session = use(SessionContext);
  if (!session) throw new Error('useSession outside SessionProvider');
  return session;
}
