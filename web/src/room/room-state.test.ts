import type { RoomStory, Session } from '../api/types.ts';
import {
  applyRoomEvent,
  currentStory,
  initialRoomState,
  lastRevealed,
  withSnapshot,
  type RoomEvent,
} from './room-state.ts';
import { distribution, withOwnVote } from './votes.ts';

const summary = (id: string, position: number, status: RoomStory['status'] = 'pending') => ({
  id,
  title: `Story ${id}`,
  status,
  position,
});
const story = (id: string, position: number, status: RoomStory['status'] = 'pending'): RoomStory => ({
  ...summary(id, position, status),
  description: '',
  acceptance_criteria: '',
  final_estimate: null,
  votes: null,
});
const session: Session = {
  id: 's1',
  name: 'Sprint',
  status: 'active',
  code: 'ABCDEF',
  participants_count: 2,
  current_story: summary('a', 1, 'voting'),
  voting_system: 'fibonacci',
  deck: ['1', '2', '3', '5', '8', '?', 'coffee'],
  voteby_enabled: false,
  vote_by_at: null,
  countdown: null,
};
const bob = { id: 1, name: 'Bob', role: 'participant' as const };
const cleo = { id: 2, name: 'Cleo', role: 'participant' as const };
const start = () => initialRoomState(session, [bob, cleo], [story('b', 2), story('a', 1, 'voting')]);
const play = (...events: RoomEvent[]) => events.reduce(applyRoomEvent, start());
const stats = (votes_cast: number) => ({ votes_cast, total_participants: 2, all_voted: votes_cast === 2 });

describe('the room state', () => {
  it('knows who voted before the page opened from the room read, and adds the voters events name', () => {
    const round = { story_id: 'a', voted: [bob.id], stats: stats(1) };
    const opened = initialRoomState(session, [bob, cleo], [story('a', 1, 'voting')], round);
    expect(opened.voted).toEqual({ a: [bob.id] });
    expect(opened.stats).toEqual({ a: stats(1) });
    // A vote replayed after the read changes nothing; a read again keeps the voters seen since.
    const again = applyRoomEvent(opened, {
      type: 'vote.cast',
      data: { story_id: 'a', participant: bob, stats: stats(1) },
    });
    expect(again.voted).toEqual({ a: [bob.id] });
    const reread = withSnapshot(
      applyRoomEvent(again, {
        type: 'vote.cast',
        data: { story_id: 'a', participant: cleo, stats: stats(2) },
      }),
      { round: { story_id: 'a', voted: [bob.id], stats: stats(1) } },
    );
    expect(reread.voted).toEqual({ a: [bob.id, cleo.id] });
    expect(reread.stats).toEqual({ a: stats(2) });
  });

  it('records who voted and the counts from vote.cast, never a value', () => {
    const s = play(
      { type: 'vote.cast', data: { story_id: 'a', participant: bob, stats: stats(1) } },
      { type: 'vote.cast', data: { story_id: 'a', participant: bob, stats: stats(1) } },
      { type: 'vote.cast', data: { story_id: 'a', participant: cleo, stats: stats(2) } },
    );
    expect(s.voted).toEqual({ a: [1, 2] });
    expect(s.stats.a).toEqual(stats(2));
    expect(s.mine).toEqual({});
  });

  it("keeps the count of the events that came while this browser's vote was on its way, not its answer's", () => {
    const cast = (who: typeof bob, n: number, story = 'a') => ({
      type: 'vote.cast',
      data: { story_id: story, participant: who, stats: stats(n) },
    });
    // Bob's vote leaves; the stream brings it, then Cleo's, before the answer with its count of one.
    const sent = start();
    let s = [cast(bob, 1), cast(cleo, 2)].reduce(applyRoomEvent, sent);
    s = withOwnVote(s, 'a', 1, '5', stats(1), sent.seen);
    expect(s.stats.a).toEqual(stats(2));
    expect(s.mine).toEqual({ a: '5' });
    expect(s.voted.a).toEqual([1, 2]);

    // Only events of before it, or of another story, since it left: the answer's count is the newest.
    const before = applyRoomEvent(start(), cast(cleo, 1));
    s = applyRoomEvent(before, cast(cleo, 1, 'b'));
    s = withOwnVote(s, 'a', 1, '5', stats(2), before.seen);
    expect(s.stats.a).toEqual(stats(2));
  });

  it('shows the reveal: votes and consensus of the story, the next story open', () => {
    const s = play({
      type: 'story.revealed',
      data: {
        story: {
          ...summary('a', 1, 'revealed'),
          final_estimate: '5',
          revealed_at: '2026-01-01T00:00:00Z',
          votes: [{ participant: { id: 1, name: 'Bob' }, value: '5' }],
        },
        next_story_id: 'b',
      },
    });
    expect(lastRevealed(s)).toMatchObject({ id: 'a', final_estimate: '5', status: 'revealed' });
    expect(currentStory(s)).toMatchObject({ id: 'b', status: 'voting' });
    expect(s.stories.map((x) => [x.id, x.status])).toEqual([
      ['a', 'revealed'],
      ['b', 'voting'],
    ]);
  });

  it('forgets the votes of a reset story, this browser own one included', () => {
    let s = withOwnVote(start(), 'a', 1, '8', stats(1), start().seen);
    expect(s.mine).toEqual({ a: '8' });
    s = applyRoomEvent(s, { type: 'story.reset', data: { story: summary('a', 1, 'voting') } });
    expect(s.mine).toEqual({});
    expect(s.voted.a).toEqual([]);
    expect(s.stats.a).toBeUndefined();
  });

  it('moves the current story on activation, the previous one back to pending', () => {
    const s = play({
      type: 'story.activated',
      data: { story: summary('b', 2, 'voting'), previous_story_id: 'a' },
    });
    expect(currentStory(s)?.id).toBe('b');
    expect(s.stories.find((x) => x.id === 'a')?.status).toBe('pending');
  });

  it('adds, reorders and deletes stories, keeping position order', () => {
    let s = play(
      { type: 'story.created', data: { story: summary('c', 3) } },
      { type: 'story.updated', data: { story: summary('c', 0), changed: ['position'] } },
    );
    expect(s.stories.map((x) => x.id)).toEqual(['c', 'a', 'b']);
    s = applyRoomEvent(s, { type: 'story.deleted', data: { story: summary('a', 1), next_story_id: 'b' } });
    expect(s.stories.map((x) => x.id)).toEqual(['c', 'b']);
    expect(currentStory(s)?.id).toBe('b');
  });

  it('follows participants joining, leaving and becoming observers', () => {
    const dan = { id: 3, name: 'Dan', role: 'participant' as const };
    let s = play(
      { type: 'participant.joined', data: { participant: dan } },
      { type: 'participant.joined', data: { participant: dan } },
      { type: 'vote.cast', data: { story_id: 'a', participant: dan, stats: stats(1) } },
    );
    expect(s.participants.map((p) => p.name)).toEqual(['Bob', 'Cleo', 'Dan']);
    s = applyRoomEvent(s, {
      type: 'participant.updated',
      data: { participant: { ...dan, role: 'observer' } },
    });
    expect(s.voted.a).toEqual([]);
    s = applyRoomEvent(s, { type: 'participant.left', data: { participant: bob } });
    expect(s.participants.map((p) => p.name)).toEqual(['Cleo', 'Dan']);
  });

  it('takes a fresh read over what the events patched, and ignores unknown events', () => {
    const s = withSnapshot(play({ type: 'something.new', data: {} }), {
      stories: [{ ...story('a', 1, 'revealed'), final_estimate: '3' }, story('b', 2, 'voting')],
      session: { ...session, current_story: summary('b', 2, 'voting') },
    });
    expect(currentStory(s)?.id).toBe('b');
    expect(lastRevealed(s)?.final_estimate).toBe('3');
  });

  it('keeps, over a fresh read, who joined and what was added while it was on its way', () => {
    const dan = { id: 3, name: 'Dan', role: 'participant' as const };
    const s = withSnapshot(
      play(
        { type: 'participant.joined', data: { participant: dan } },
        { type: 'story.created', data: { story: summary('c', 3) } },
      ),
      { participants: [bob, cleo], stories: [story('a', 1, 'voting'), story('b', 2)] },
    );
    expect(s.participants.map((p) => p.name)).toEqual(['Bob', 'Cleo', 'Dan']);
    expect(s.stories.map((x) => x.id)).toEqual(['a', 'b', 'c']);
  });

  it('keeps the names the reveal showed over a read that names no voters (the session keeps no names)', () => {
    const revealed = { ...story('a', 1, 'revealed'), final_estimate: '5' };
    const named = [
      { participant: { id: 1, name: 'Bob' }, value: '5' },
      { participant: { id: 2, name: 'Cleo' }, value: '3' },
    ];
    const anonymous = (values: string[]) =>
      values.map((value) => ({ participant: { id: null, name: null }, value }));
    const seen = play({
      type: 'story.revealed',
      data: { story: { ...revealed, votes: named }, next_story_id: 'b' },
    });
    const read = (values: string[]) =>
      withSnapshot(seen, { stories: [{ ...revealed, votes: anonymous(values) }, story('b', 2, 'voting')] });
    expect(lastRevealed(read(['3', '5']))?.votes).toEqual(named);
    // Other votes than those seen: the read is newer.
    expect(lastRevealed(read(['8', '5']))?.votes).toEqual(anonymous(['8', '5']));
  });

  it('counts votes per card in deck order', () => {
    expect(distribution(['1', '2', '3'], ['3', '1', '3', 'x'])).toEqual([
      { value: '1', count: 1 },
      { value: '3', count: 2 },
      { value: 'x', count: 1 },
    ]);
  });
  it('follows the round countdown: started, stopped, and ended with its round', () => {
    const countdown = {
      story_id: 'a',
      ends_at: '2030-01-01T00:00:30Z',
      seconds: 30,
      at_zero: 'reveal' as const,
    };
    const started = play({ type: 'countdown.started', data: { countdown } });
    expect(started.session.countdown).toEqual(countdown);
    // Another round's end leaves it; its own stop ends it.
    expect(
      applyRoomEvent(started, { type: 'countdown.ended', data: { story_id: 'b' } }).session.countdown,
    ).toEqual(countdown);
    expect(
      applyRoomEvent(started, { type: 'countdown.ended', data: { story_id: 'a' } }).session.countdown,
    ).toBeNull();
    const revealed = applyRoomEvent(started, {
      type: 'story.revealed',
      data: {
        story: { ...summary('a', 1, 'revealed'), votes: [], final_estimate: null },
        next_story_id: 'b',
      },
    });
    expect(revealed.session.countdown).toBeNull();
    const activated = applyRoomEvent(started, {
      type: 'story.activated',
      data: { story: summary('b', 2, 'voting'), previous_story_id: 'a' },
    });
    expect(activated.session.countdown).toBeNull();
  });

  it('marks who is connected from the presence events, and keeps it over a role change', () => {
    const opened = initialRoomState(session, [{ ...bob, connected: true }, cleo], [story('a', 1, 'voting')]);
    const away = applyRoomEvent(opened, {
      type: 'participant.presence',
      data: { participant: { id: bob.id, name: 'Bob' }, connected: false },
    });
    expect(away.participants.find((p) => p.id === bob.id)?.connected).toBe(false);
    const observer = applyRoomEvent(away, {
      type: 'participant.updated',
      data: { participant: { ...bob, role: 'observer' }, previous_role: 'participant' },
    });
    expect(observer.participants.find((p) => p.id === bob.id)).toMatchObject({
      role: 'observer',
      connected: false,
    });
    // Someone not (or no longer) in the room is not added by their presence.
    const stranger = applyRoomEvent(opened, {
      type: 'participant.presence',
      data: { participant: { id: 99, name: 'Zed' }, connected: true },
    });
    expect(stranger.participants).toHaveLength(2);
  });
});
