import { signOut, useAuth } from '../auth.ts';
import { LANG_NAMES, LANGS, setLang, t, useLang, type Lang } from '../i18n/i18n.ts';
import { follow, useRoute } from '../navigation.ts';
import { Home } from './Home.tsx';
import { Room } from './Room.tsx';

/** The page's language, switched in place (and kept for the next visit). */
function LanguageSwitch({ lang }: { lang: Lang }) {
  return (
    <label class="lang-switch">
      <span class="sr-only">{t().language}</span>
      <select name="language" value={lang} onChange={(e) => setLang(e.currentTarget.value as Lang)}>
        {LANGS.map((l) => (
          <option key={l} value={l} lang={l}>
            {LANG_NAMES[l]}
          </option>
        ))}
      </select>
    </label>
  );
}

export function App() {
  const route = useRoute();
  const auth = useAuth();
  // Every text is read from the catalog at render: a new language renders the app again.
  const lang = useLang();
  const m = t();
  return (
    <>
      <a class="skip" href="#main">
        {m.skipToContent}
      </a>
      <header class="topbar">
        <a href="/" class="brand" onClick={follow}>
          {m.brand}
        </a>
        <span class="who">
          <LanguageSwitch lang={lang} />
          {auth.token && (
            <>
              {auth.user && <span>{auth.user.name}</span>}
              <button type="button" class="link" onClick={signOut}>
                {m.signOut}
              </button>
            </>
          )}
        </span>
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
