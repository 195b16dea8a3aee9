import { bodyFor } from './chat-formats.ts';
import type { WebhookPayload } from './payload.ts';

const revealed = (title: string, votes: number): WebhookPayload => ({
  type: 'story.revealed',
  timestamp: '2026-01-01T00:00:00.000Z',
  data: {
    session_code: 'ABCDEF',
    story: {
      title,
      final_estimate: '5',
      votes: Array.from({ length: votes }, (_, i) => ({ participant: { id: i, name: `P${i}` }, value: '5' })),
    },
  },
});

/** What anyone who knows a session's code can type (a name), or its members (a story, an estimate). */
const HOSTILE =
  '<!channel> [Click to re-login](https://evil.example) <https://evil.example|here> <@123> **b** _i_ ~s~ `c` |x| # > & +';

/** An event of every kind that carries what users typed, with this text wherever they type. */
const typed = (text: string): WebhookPayload[] => {
  const event = (type: string, data: Record<string, unknown>): WebhookPayload => ({
    type,
    timestamp: '2026-01-01T00:00:00.000Z',
    data,
  });
  const participant = { id: 1, name: text, role: 'voter' };
  return [
    event('session.created', { session: { name: text, code: 'ABCDEF' } }),
    event('participant.joined', { session_code: 'ABCDEF', participant }),
    event('vote.cast', {
      session_code: 'ABCDEF',
      participant,
      stats: { votes_cast: 1, total_participants: 2 },
    }),
    event('story.created', { session_code: 'ABCDEF', story: { title: text } }),
    event('story.reset', { session_code: 'ABCDEF', story: { title: text } }),
    event('story.revealed', {
      session_code: 'ABCDEF',
      story: { title: text, final_estimate: text, votes: [{ participant, value: text }] },
    }),
  ];
};

/** Every string of a body, in whatever field it is placed. */
const strings = (value: unknown): string[] =>
  typeof value === 'string'
    ? [value]
    : value && typeof value === 'object'
      ? Object.values(value).flatMap(strings)
      : [];

/** What is left taken as markdown once the backslash-escaped characters are set aside. */
const unescaped = (text: string) => text.replace(/\\[\s\S]/g, '');

describe('chat formats', () => {
  it('keeps Discord within its limits and never pings anyone', () => {
    const body = bodyFor('discord', revealed(`@everyone ${'x'.repeat(3000)}`, 40)) as Record<string, any>;
    expect(body.content.length).toBeLessThanOrEqual(2000);
    expect(body.allowed_mentions).toEqual({ parse: [] });
    expect(body.embeds[0].fields).toHaveLength(25);
    // The votes past the limit are counted, not dropped without a word.
    expect(body.embeds[0].fields.at(-1)).toMatchObject({ name: 'More votes', value: '16 not shown' });
  });

  it('cuts a long text between characters, never within an emoji', () => {
    // Every cut of the texts (Discord's 256 and 2,000, Slack's 3,000) lands on an emoji for some offset.
    for (const pad of ['', 'x', 'xy'])
      for (const kind of ['discord', 'slack'] as const) {
        const body = bodyFor(kind, revealed(pad + '😀'.repeat(2_000), 30));
        for (const text of strings(body))
          expect([kind, pad.length, text.isWellFormed()]).toEqual([kind, pad.length, true]);
      }
  });

  it('keeps a Slack message to five sections of votes and says how many more there were', () => {
    const body = bodyFor('slack', revealed('Many voters', 60)) as Record<string, any>;
    const fields = body.blocks.slice(1).flatMap((b: { fields: Array<{ text: string }> }) => b.fields);
    expect(fields).toHaveLength(50);
    expect(fields.at(-1).text).toBe('*More votes*\n11 not shown');
  });

  it('escapes Slack markup in what users typed and splits many votes into sections of 10 fields', () => {
    const body = bodyFor('slack', revealed('<!channel> & co', 23)) as Record<string, any>;
    expect(body.blocks[0].text.text).toContain('&lt;!channel&gt; &amp; co');
    expect(body.blocks.slice(1).map((b: { fields: unknown[] }) => b.fields.length)).toEqual([10, 10, 3]);
  });

  it('never lets a name or a title mention or link in any field of a Slack message', () => {
    const body = bodyFor('slack', typed('<!channel> <https://evil.example|Click to re-login>')[1]!) as Record<
      string,
      any
    >;
    expect(body.text).toBe(
      'Participant joined: &lt;!channel&gt; &lt;https://evil.example|Click to re-login&gt; joined session ABCDEF as voter.',
    );
    for (const payload of typed(HOSTILE))
      for (const text of strings(bodyFor('slack', payload))) {
        expect(text).not.toMatch(/[<>]/);
        expect(text).not.toMatch(/&(?!amp;|lt;|gt;)/);
      }
  });

  it('escapes the markdown of what users typed in every field of a Teams card', () => {
    const body = bodyFor('teams', typed('[Click to re-login](https://evil.example) **now**')[1]!) as Record<
      string,
      any
    >;
    expect(body.attachments[0].content.body[1].text).toBe(
      '\\[Click to re\\-login\\]\\(https://evil.example\\) \\*\\*now\\*\\* joined session ABCDEF as voter.',
    );
    for (const text of [HOSTILE, '- item', '1. first'])
      for (const payload of typed(text))
        for (const field of strings((bodyFor('teams', payload) as any).attachments[0].content.body)) {
          expect(unescaped(field)).not.toMatch(/[[\]()<>*_~`|#&+\\-]/);
          expect(unescaped(field)).not.toMatch(/^\s*\d+\./m);
        }
  });

  it('escapes the markdown of what users typed in the content and the embed of a Discord message', () => {
    const revealed = typed('[Click](https://evil.example) <@123>')[5]!;
    const body = bodyFor('discord', revealed) as Record<string, any>;
    expect(body.embeds[0].title).toBe('Votes revealed: \\[Click\\]\\(https://evil.example\\) \\<@123\\>');
    expect(body.embeds[0].fields[0].name).toBe('\\[Click\\]\\(https://evil.example\\) \\<@123\\>');
    for (const text of [HOSTILE, '- item', '1. first'])
      for (const payload of typed(text)) {
        const body = bodyFor('discord', payload) as Record<string, any>;
        // The title's bold is the message's own.
        const content = (body.content as string).replace(/^\*\*([^\n]*)\*\*\n/, '$1\n');
        for (const field of [content, ...strings(body.embeds)]) {
          expect(unescaped(field)).not.toMatch(/[[\]()<>*_~`|#\\-]/);
          expect(unescaped(field)).not.toMatch(/^\s*\d+\./m);
        }
      }
  });

  it('gives a generic webhook the payload itself', () => {
    const payload = revealed('A', 1);
    expect(bodyFor('generic', payload)).toBe(payload);
  });
});
