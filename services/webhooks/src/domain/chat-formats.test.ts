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

describe('chat formats', () => {
  it('keeps Discord within its limits and never pings anyone', () => {
    const body = bodyFor('discord', revealed(`@everyone ${'x'.repeat(3000)}`, 40)) as Record<string, any>;
    expect(body.content.length).toBeLessThanOrEqual(2000);
    expect(body.allowed_mentions).toEqual({ parse: [] });
    expect(body.embeds[0].fields).toHaveLength(25);
  });

  it('escapes Slack markup in what users typed and splits many votes into sections of 10 fields', () => {
    const body = bodyFor('slack', revealed('<!channel> & co', 23)) as Record<string, any>;
    expect(body.blocks[0].text.text).toContain('&lt;!channel&gt; &amp; co');
    expect(body.blocks.slice(1).map((b: { fields: unknown[] }) => b.fields.length)).toEqual([10, 10, 3]);
  });

  it('gives a generic webhook the payload itself', () => {
    const payload = revealed('A', 1);
    expect(bodyFor('generic', payload)).toBe(payload);
  });
});
