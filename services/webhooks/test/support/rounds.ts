import type { TestResponse } from '@pp/testing';
import type { WebhooksPlatform } from './webhooks-harness.ts';

/** Sessions, stories and votes through the gateway, as a team would make them. */
export function rounds(p: WebhooksPlatform, token: string) {
  const ok = (res: TestResponse, status = 200) => {
    if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${res.text}`);
    return res.body;
  };
  return {
    async session(settings: Record<string, unknown> = {}): Promise<{ id: string; code: string }> {
      return ok(await p.client.post('/sessions', { token, body: { name: 'Sprint', ...settings } }), 201)
        .session;
    },
    async story(code: string, title: string): Promise<string> {
      return ok(await p.client.post(`/sessions/${code}/stories`, { token, body: { title } }), 201).story.id;
    },
    async vote(code: string, name: string, value: string): Promise<void> {
      const participant = ok(await p.client.post(`/sessions/${code}/join`, { body: { name } })).participant;
      ok(
        await p.client.post(`/sessions/${code}/vote`, {
          body: { participant_id: participant.id, vote: value },
        }),
      );
    },
    async reveal(storyId: string) {
      return ok(await p.client.post(`/stories/${storyId}/reveal`, { token })).story;
    },
    /** A session with one story, votes of the given people, revealed. */
    async revealedRound(settings: Record<string, unknown>, title: string, votes: Record<string, string>) {
      const session = await this.session(settings);
      const story = await this.story(session.code, title);
      for (const [name, value] of Object.entries(votes)) await this.vote(session.code, name, value);
      await this.reveal(story);
      return { session, story };
    },
    async webhook(body: Record<string, unknown>) {
      return ok(await p.client.post('/webhooks', { token, body }), 201).webhook as {
        id: string;
        secret: string;
      };
    },
    async deliveries(id: string) {
      return ok(await p.client.get(`/webhooks/${id}/deliveries`, { token })).deliveries as Array<
        Record<string, any>
      >;
    },
  };
}
