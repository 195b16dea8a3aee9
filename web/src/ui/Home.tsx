import { useEffect, useState } from 'preact/hooks';
import { signIn, type Auth } from '../auth.ts';
import { createSession, listSessions, login, register, type NewSession } from '../api/endpoints.ts';
import type { Session } from '../api/types.ts';
import { t } from '../i18n/i18n.ts';
import { follow, navigate, roomPath } from '../navigation.ts';
import { CheckField, Field, Problem, TextField, useAction } from './common.tsx';

export function Home({ auth }: { auth: Auth }) {
  return (
    <div class="home">
      <JoinByCode />
      {auth.token ? (
        <>
          <CreateSession token={auth.token} />
          <MySessions token={auth.token} />
        </>
      ) : (
        <SignIn />
      )}
    </div>
  );
}

function JoinByCode() {
  const [code, setCode] = useState('');
  const valid = /^[A-Za-z0-9]{6}$/.test(code.trim());
  return (
    <section class="panel" aria-labelledby="join-title">
      <h1 id="join-title">{t().joinARoom}</h1>
      <form
        class="row"
        onSubmit={(e) => {
          e.preventDefault();
          if (valid) navigate(roomPath(code.trim()));
        }}
      >
        <Field label={t().roomCode} hint={t().roomCodeHint}>
          <input
            name="code"
            value={code}
            maxLength={6}
            autoComplete="off"
            autoCapitalize="characters"
            spellcheck={false}
            onInput={(e) => setCode(e.currentTarget.value)}
          />
        </Field>
        <button type="submit" disabled={!valid}>
          {t().openTheRoom}
        </button>
      </form>
    </section>
  );
}

function SignIn() {
  const [mode, setMode] = useState<'in' | 'up'>('in');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [name, setName] = useState('');
  const action = useAction();
  const submit = (e: Event) => {
    e.preventDefault();
    void action.run(async () => {
      const answer =
        mode === 'up' ? await register({ email, password, name }) : await login({ email, password });
      signIn(answer.token, answer.user);
    });
  };
  const m = t();
  return (
    <section class="panel" aria-labelledby="signin-title">
      <h2 id="signin-title">{mode === 'in' ? m.signInTitle : m.createAccount}</h2>
      <form onSubmit={submit}>
        {mode === 'up' && (
          <TextField label={m.yourName} name="name" required maxLength={100} value={name} onValue={setName} />
        )}
        <TextField
          label={m.email}
          name="email"
          type="email"
          required
          autoComplete="email"
          value={email}
          onValue={setEmail}
        />
        <TextField
          label={m.password}
          hint={mode === 'up' ? m.passwordHint : undefined}
          name="password"
          type="password"
          required
          minLength={mode === 'up' ? 8 : 1}
          autoComplete={mode === 'up' ? 'new-password' : 'current-password'}
          value={password}
          onValue={setPassword}
        />
        <Problem error={action.error} />
        <div class="row">
          <button type="submit" disabled={action.busy}>
            {mode === 'in' ? m.signIn : m.signUp}
          </button>
          <button type="button" class="link" onClick={() => setMode(mode === 'in' ? 'up' : 'in')}>
            {mode === 'in' ? m.toSignUp : m.toSignIn}
          </button>
        </div>
      </form>
    </section>
  );
}

const DECKS = (): Array<[NewSession['voting_system'], string]> => [
  ['fibonacci', t().deckFibonacci],
  ['tshirt', t().deckTshirt],
  ['powers_of_two', t().deckPowers],
  ['custom', t().deckCustom],
];

/** A local date and time for the datetime-local input, an hour from now. */
const inAnHour = () => {
  const d = new Date(Date.now() + 3600_000 - new Date().getTimezoneOffset() * 60_000);
  return d.toISOString().slice(0, 16);
};

function CreateSession({ token }: { token: string }) {
  const [name, setName] = useState('');
  const [deck, setDeck] = useState<NewSession['voting_system']>('fibonacci');
  const [cards, setCards] = useState('');
  const [deckName, setDeckName] = useState('');
  const [autoReveal, setAutoReveal] = useState(false);
  const [named, setNamed] = useState(true);
  const [voteBy, setVoteBy] = useState(false);
  const [deadline, setDeadline] = useState(inAnHour);
  const action = useAction();
  const submit = (e: Event) => {
    e.preventDefault();
    void action.run(async () => {
      const custom = deck === 'custom';
      const { session } = await createSession(token, {
        name,
        voting_system: deck,
        custom_deck_name: custom && deckName.trim() ? deckName.trim() : null,
        custom_deck_values: custom
          ? cards
              .split(',')
              .map((c) => c.trim())
              .filter(Boolean)
          : null,
        auto_reveal: autoReveal,
        record_vote_names: named,
        voteby_enabled: voteBy,
        vote_by_at: voteBy ? new Date(deadline).toISOString() : null,
      });
      navigate(roomPath(session.code));
    });
  };
  const m = t();
  return (
    <section class="panel" aria-labelledby="create-title">
      <h2 id="create-title">{m.newSession}</h2>
      <form onSubmit={submit}>
        <TextField
          label={m.sessionName}
          name="session-name"
          required
          maxLength={200}
          value={name}
          onValue={setName}
        />
        <Field label={m.deck}>
          <select
            name="deck"
            value={deck}
            onChange={(e) => setDeck(e.currentTarget.value as NewSession['voting_system'])}
          >
            {DECKS().map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </Field>
        {deck === 'custom' && (
          <>
            <TextField
              label={m.cards}
              hint={m.cardsHint}
              name="cards"
              required
              value={cards}
              onValue={setCards}
            />
            <TextField
              label={m.deckName}
              name="deck-name"
              maxLength={64}
              value={deckName}
              onValue={setDeckName}
            />
          </>
        )}
        <CheckField label={m.autoReveal} name="auto-reveal" checked={autoReveal} onValue={setAutoReveal} />
        <CheckField label={m.namedVotes} name="named-votes" checked={named} onValue={setNamed} />
        <CheckField label={m.voteByDeadline} name="vote-by" checked={voteBy} onValue={setVoteBy} />
        {voteBy && (
          <TextField
            label={m.deadline}
            type="datetime-local"
            name="deadline"
            required
            value={deadline}
            onValue={setDeadline}
          />
        )}
        <Problem error={action.error} />
        <button type="submit" disabled={action.busy}>
          {m.createSession}
        </button>
      </form>
    </section>
  );
}

function MySessions({ token }: { token: string }) {
  const [sessions, setSessions] = useState<Session[] | null>(null);
  const action = useAction();
  useEffect(() => {
    void action.run(async () => setSessions((await listSessions(token)).sessions));
  }, [token]);
  return (
    <section class="panel" aria-labelledby="mine-title">
      <h2 id="mine-title">{t().yourSessions}</h2>
      <Problem error={action.error} />
      {sessions?.length === 0 && <p>{t().noSessions}</p>}
      {sessions && sessions.length > 0 && (
        <ul class="plain">
          {sessions.map((s) => (
            <li key={s.id}>
              <a href={roomPath(s.code)} onClick={follow}>
                {s.name}
              </a>{' '}
              <span class="muted">
                {s.code} · {t()[`status_${s.status}`]}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
