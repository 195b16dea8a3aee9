import { fc, it } from '@fast-check/jest';
import { fixedDecks } from './deck.ts';
import { participantTokenKey } from '@pp/contracts';
import { generateParticipantToken } from './participant-token.ts';
import { voteRefusal, voteStats, type VoteScene } from './vote-rules.ts';

const NOW = new Date('2030-01-01T12:00:00Z');
const { token, hash } = generateParticipantToken(
  participantTokenKey('internal-signing-key-for-tests-0123456789'),
  'AB3DEF',
);
const deck = fixedDecks.fibonacci;

const open = (over: Partial<VoteScene['session']> = {}, scene: Partial<VoteScene> = {}): VoteScene => ({
  session: {
    status: 'active',
    deck,
    votebyEnabled: false,
    voteByAt: null,
    requireParticipantToken: false,
    ...over,
  },
  participant: { role: 'participant', tokenHash: hash, votedWithToken: false },
  round: { sealed: false },
  ...scene,
});

describe('vote rules', () => {
  it('takes a card of the deck from a participant in an open round, with or without its token', () => {
    expect(voteRefusal(open(), { value: '5', token: undefined }, NOW)).toBeNull();
    expect(voteRefusal(open(), { value: 'coffee', token }, NOW)).toBeNull();
  });

  it.prop([fc.string({ maxLength: 12 }).filter((v) => !deck.includes(v))])(
    'refuses any value off the deck',
    (value) => {
      expect(voteRefusal(open(), { value, token: undefined }, NOW)).toBe('invalid_vote');
    },
  );

  it.prop([fc.constantFrom('paused', 'completed', 'archived')])(
    'refuses votes unless the session is active',
    (status) => {
      expect(voteRefusal(open({ status }), { value: '5', token: undefined }, NOW)).toBe('session_not_active');
    },
  );

  it('closes voting at the deadline, not before', () => {
    const at = (ms: number) => open({ votebyEnabled: true, voteByAt: new Date(NOW.getTime() + ms) });
    expect(voteRefusal(at(1), { value: '5', token: undefined }, NOW)).toBeNull();
    expect(voteRefusal(at(0), { value: '5', token: undefined }, NOW)).toBe('voting_closed');
    expect(
      voteRefusal(
        open({ votebyEnabled: false, voteByAt: new Date(0) }),
        { value: '5', token: undefined },
        NOW,
      ),
    ).toBeNull();
  });

  it("closes the round at its countdown's zero when it was started to close it, not before, and not to reveal it", () => {
    const round = (ms: number, atZero: string) =>
      open(
        {},
        {
          round: {
            sealed: false,
            countdown_ends_at: new Date(NOW.getTime() + ms),
            countdown_at_zero: atZero,
          },
        },
      );
    const vote = { value: '5', token: undefined };
    expect(voteRefusal(round(1, 'close'), vote, NOW)).toBeNull();
    expect(voteRefusal(round(0, 'close'), vote, NOW)).toBe('voting_closed');
    expect(voteRefusal(round(-1, 'reveal'), vote, NOW)).toBeNull();
  });

  it('checks who votes before anything else: unknown, token, observer', () => {
    const closed = open({ status: 'archived' }, { round: null });
    expect(voteRefusal({ ...closed, participant: null }, { value: 'x', token }, NOW)).toBe(
      'participant_not_found',
    );
    expect(voteRefusal(closed, { value: 'x', token: 'ppt_forged' }, NOW)).toBe('invalid_participant_token');
    const observer = {
      ...closed,
      participant: { role: 'observer' as const, tokenHash: hash, votedWithToken: false },
    };
    expect(voteRefusal(observer, { value: 'x', token }, NOW)).toBe('observer_cannot_vote');
  });

  it('needs the token when the session requires it', () => {
    const strict = open({ requireParticipantToken: true });
    expect(voteRefusal(strict, { value: '5', token: undefined }, NOW)).toBe('participant_token_required');
    expect(voteRefusal(strict, { value: '5', token }, NOW)).toBeNull();
  });

  it('needs the token once the participant has voted with it, and takes it then', () => {
    const proven = open({}, { participant: { role: 'participant', tokenHash: hash, votedWithToken: true } });
    expect(voteRefusal(proven, { value: '5', token: undefined }, NOW)).toBe('participant_token_required');
    expect(voteRefusal(proven, { value: '5', token: 'ppt_forged' }, NOW)).toBe('invalid_participant_token');
    expect(voteRefusal(proven, { value: '5', token }, NOW)).toBeNull();
  });

  it('refuses when no story is open, or its round is sealed', () => {
    expect(voteRefusal(open({}, { round: null }), { value: '5', token: undefined }, NOW)).toBe(
      'no_open_story',
    );
    expect(voteRefusal(open({}, { round: { sealed: true } }), { value: '5', token: undefined }, NOW)).toBe(
      'story_already_revealed',
    );
  });

  it.prop([fc.nat(100), fc.nat(100)])(
    'says all voted exactly when every counted participant has voted',
    (cast, total) => {
      const stats = voteStats(cast, total);
      expect(stats).toEqual({
        votes_cast: cast,
        total_participants: total,
        all_voted: total > 0 && cast >= total,
      });
    },
  );
});
