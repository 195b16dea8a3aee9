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
  return (
    <section class="panel join" aria-labelledby="join-room-title">
      <h2 id="join-room-title">Join the room</h2>
      <p class="muted">
        {session.participants_count} {session.participants_count === 1 ? 'person' : 'people'} here ·{' '}
        {session.current_story ? `now estimating “${session.current_story.title}”` : 'no story open yet'}
      </p>
      {closed && <Problem error={`This session is ${session.status}: it cannot be joined now.`} />}
      <form onSubmit={submit}>
        {auth.token ? (
          <p>You join as {auth.user?.name ?? 'your account'}.</p>
        ) : (
          <TextField
            label="Your name"
            name="name"
            required
            maxLength={64}
            autoComplete="nickname"
            value={name}
            onValue={setName}
          />
        )}
        <CheckField
          label="Only watch (an observer does not vote)"
          name="observer"
          checked={observer}
          onValue={setObserver}
        />
        <Problem error={action.error} />
        <button type="submit" disabled={action.busy || closed}>
          Join
        </button>
      </form>
    </section>
  );
}
