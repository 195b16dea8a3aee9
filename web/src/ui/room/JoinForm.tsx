import { t } from '../../i18n/i18n.ts';
import { useState } from 'preact/hooks';
import type { Auth } from '../../auth.ts';
import { joinSession } from '../../api/endpoints.ts';
import type { Participant, Seat, Session } from '../../api/types.ts';
import { CheckField, Problem, TextField, useAction } from '../common.tsx';

/** The join screen of a room: a name (or the signed-in profile), and whether to only watch. */
export function JoinForm(props: {
  code: string;
  auth: Auth;
  session: Session;
  onJoined(seat: Seat, participant: Participant): void;
}) {
  const { auth, session } = props;
  const [name, setName] = useState('');
  const [observer, setObserver] = useState(false);
  const action = useAction();
  const submit = (e: Event) => {
    e.preventDefault();
    void action.run(async () => {
      const { participant } = await joinSession(props.code, auth.token, {
        ...(auth.token ? {} : { name: name.trim() }),
        ...(observer ? { role: 'observer' as const } : {}),
      });
      props.onJoined({ id: participant.id, token: participant.token }, participant);
    });
  };
  const closed = session.status !== 'active';
  const m = t();
  return (
    <section class="panel join" aria-labelledby="join-room-title">
      <h2 id="join-room-title">{m.joinTitle}</h2>
      <p class="muted">
        {m.peopleHere(session.participants_count)} ·{' '}
        {session.current_story ? m.nowEstimating(session.current_story.title) : m.noStoryYet}
      </p>
      {closed && <Problem error={m.cannotJoin(m[`status_${session.status}`])} />}
      <form onSubmit={submit}>
        {auth.token ? (
          <p>{m.joinAs(auth.user?.name ?? m.yourAccount)}</p>
        ) : (
          <TextField
            label={m.yourName}
            name="name"
            required
            maxLength={64}
            autoComplete="nickname"
            value={name}
            onValue={setName}
          />
        )}
        <CheckField label={m.onlyWatch} name="observer" checked={observer} onValue={setObserver} />
        <Problem error={action.error} />
        <button type="submit" disabled={action.busy || closed}>
          {m.join}
        </button>
      </form>
    </section>
  );
}
