import { useEffect, useState } from 'preact/hooks';
import { whenUnauthorized } from './api/client.ts';
import { me } from './api/endpoints.ts';
import type { User } from './api/types.ts';
import { readAccessToken, writeAccessToken } from './storage.ts';

/** Who is signed in: the access token (kept in local storage) and the profile (asked of the API, never stored). */
export interface Auth {
  token: string | null;
  user: User | null;
}

let auth: Auth = { token: readAccessToken(), user: null };
const listeners = new Set<(a: Auth) => void>();
const set = (next: Auth) => {
  auth = next;
  for (const l of listeners) l(auth);
};

export function signIn(token: string, user: User) {
  writeAccessToken(token);
  set({ token, user });
}

/** Forgets the access token: nothing of the account stays in the browser. */
export function signOut() {
  writeAccessToken(null);
  set({ token: null, user: null });
}

whenUnauthorized(signOut);

/** The profile of a token kept from an earlier visit. */
async function loadProfile() {
  const token = auth.token;
  if (!token || auth.user) return;
  try {
    const { user } = await me(token);
    if (auth.token === token) set({ token, user });
  } catch {
    // A refused token signs out (whenUnauthorized); a network error leaves it for later.
  }
}

export function useAuth(): Auth {
  const [state, setState] = useState(auth);
  useEffect(() => {
    listeners.add(setState);
    setState(auth);
    void loadProfile();
    return () => void listeners.delete(setState);
  }, []);
  return state;
}
