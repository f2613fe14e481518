import type { Membership, MeResponse } from '@platform/wire';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';
import { ApiError, api } from './api.js';

const ACCOUNT_KEY = 'platform.account';

export interface Session {
  readonly me: MeResponse;
  /** The account the pages act for: the one chosen last, else the first. Undefined: no account. */
  readonly account: Membership | undefined;
  chooseAccount(slug: string): void;
  signOut(): Promise<void>;
}

const SessionContext = createContext<Session | undefined>(undefined);

/** The signed-in user and the account the pages act for. Only inside {@link SessionProvider}. */
export function useSession(): Session {
  const session = useContext(SessionContext);
  if (session === undefined) throw new Error('useSession() is used outside <SessionProvider>.');
  return session;
}

/**
 * `GET /api/platform/me`: `null` when signed out, `'code-due'` when the password was right and the
 * session waits for the authenticator code.
 */
export function useMe() {
  return useQuery({
    queryKey: ['me'],
    queryFn: async (): Promise<MeResponse | null | 'code-due'> => {
      try {
        return await api<MeResponse>('GET', '/api/platform/me');
      } catch (error) {
        if (error instanceof ApiError && error.reason === 'mfa_pending') return 'code-due';
        if (error instanceof ApiError && error.status === 401) return null;
        throw error;
      }
    },
    staleTime: 30_000,
  });
}

function storedAccount(): string | null {
  try {
    return window.localStorage.getItem(ACCOUNT_KEY);
  } catch {
    return null;
  }
}

export function SessionProvider(props: { me: MeResponse; children: ReactNode }): ReactNode {
  const queryClient = useQueryClient();
  const [chosen, setChosen] = useState<string | null>(storedAccount);
  const account = props.me.accounts.find((found) => found.slug === chosen) ?? props.me.accounts[0];
  const chooseAccount = useCallback(
    (slug: string) => {
      try {
        window.localStorage.setItem(ACCOUNT_KEY, slug);
      } catch {
        // A browser without storage keeps the choice for this page only.
      }
      setChosen(slug);
      // Every account-scoped answer belongs to the account it was asked for.
      void queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== 'me' });
    },
    [queryClient],
  );
  const signOut = useCallback(async () => {
    await api('POST', '/api/platform/sign-out');
    queryClient.clear();
    // A full load: nothing of the signed-in pages stays in memory.
    window.location.assign('/sign-in');
  }, [queryClient]);
  const session = useMemo(
    () => ({ me: props.me, account, chooseAccount, signOut }),
    [props.me, account, chooseAccount, signOut],
  );
  return <SessionContext.Provider value={session}>{props.children}</SessionContext.Provider>;
}
