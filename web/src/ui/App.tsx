import { signOut, useAuth } from '../auth.ts';
import { follow, useRoute } from '../navigation.ts';
import { Home } from './Home.tsx';
import { Room } from './Room.tsx';

export function App() {
  const route = useRoute();
  const auth = useAuth();
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="topbar">
        <a href="/" class="brand" onClick={follow}>
          Planning poker
        </a>
        {auth.token && (
          <span class="who">
            {auth.user && <span>{auth.user.name}</span>}
            <button type="button" class="link" onClick={signOut}>
              Sign out
            </button>
          </span>
        )}
      </header>
      <main id="main" tabIndex={-1}>
        {route.page === 'room' ? (
          // Who is signed in decides what the room shows (the owner's tools or the join screen): a
          // sign-out, or a token refused, opens the room afresh rather than patching the owner's view.
          <Room key={`${route.code} ${auth.token ?? ''}`} code={route.code} auth={auth} />
        ) : (
          <Home auth={auth} />
        )}
      </main>
    </>
  );
}
