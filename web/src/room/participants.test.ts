import type { Participant, RoomStory, Session } from '../api/types.ts';
import { applyRoomEvent, initialRoomState, type RoomEvent } from './room-state.ts';

const open: RoomStory = {
  id: 'a',
  title: 'A',
  description: '',
  acceptance_criteria: '',
  status: 'voting',
  position: 1,
  final_estimate: null,
  votes: null,
};
const session: Session = {
  id: 's1',
  name: 'Sprint',
  status: 'active',
  code: 'ABCDEF',
  participants_count: 2,
  current_story: open,
  voting_system: 'fibonacci',
  deck: ['1', '2', '3', '5', '?'],
  voteby_enabled: false,
  vote_by_at: null,
  countdown: null,
};
const ann: Participant = { id: 1, name: 'Ann', role: 'moderator' };
const bob: Participant = { id: 2, name: 'Bob', role: 'participant' };
const cleo: Participant = { id: 3, name: 'Cleo', role: 'participant' };
const counts = (votes_cast: number, total_participants: number) => ({
  votes_cast,
  total_participants,
  all_voted: votes_cast === total_participants,
});
/** Ann and Bob in the room, Bob has voted on the open story. */
const bobVoted = () =>
  applyRoomEvent(initialRoomState(session, [ann, bob], [open]), {
    type: 'vote.cast',
    data: { story_id: 'a', participant: bob, stats: counts(1, 2) },
  });
const play = (...events: RoomEvent[]) => events.reduce(applyRoomEvent, bobVoted());

describe('the room state, as people come, go and change roles', () => {
  it('counts one more voter when someone joins, none when an observer or someone already here does', () => {
    const s = play(
      { type: 'participant.joined', data: { participant: cleo } },
      { type: 'participant.joined', data: { participant: cleo } },
      { type: 'participant.joined', data: { participant: { id: 4, name: 'Olga', role: 'observer' } } },
    );
    expect(s.stats.a).toEqual(counts(1, 3));
  });

  it('counts one voter and one vote less when a voter who voted is removed', () => {
    const s = play({ type: 'participant.left', data: { participant: bob } });
    expect(s.stats.a).toEqual({ votes_cast: 0, total_participants: 1, all_voted: false });
    expect(s.voted.a).toEqual([]);
  });

  it('counts one voter less when someone who has not voted is removed: the others have all voted', () => {
    const s = play({ type: 'participant.left', data: { participant: ann } });
    expect(s.stats.a).toEqual(counts(1, 1));
  });

  it('counts a voter who becomes an observer out, vote included, and one who stops watching in', () => {
    let s = play({ type: 'participant.updated', data: { participant: { ...bob, role: 'observer' } } });
    expect(s.stats.a).toEqual({ votes_cast: 0, total_participants: 1, all_voted: false });
    s = applyRoomEvent(s, { type: 'participant.updated', data: { participant: bob } });
    expect(s.stats.a).toEqual({ votes_cast: 0, total_participants: 2, all_voted: false });
  });

  it('hands the moderator role over: the one who had it is a participant now', () => {
    const s = play({ type: 'participant.updated', data: { participant: { ...bob, role: 'moderator' } } });
    expect(s.participants).toEqual([
      { ...ann, role: 'participant' },
      { ...bob, role: 'moderator' },
    ]);
    expect(s.stats.a).toEqual(counts(1, 2));
  });
});
