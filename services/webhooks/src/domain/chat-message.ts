import type { WebhookPayload } from './payload.ts';

/** A delivery told in words, for the chat tools: a title, a line, and facts (who voted what). */
export interface ChatMessage {
  title: string;
  text: string;
  facts: Array<{ name: string; value: string }>;
}

/* eslint-disable @typescript-eslint/no-explicit-any -- the data was checked against its event's contract when consumed */
type Describe = (data: any) => Omit<ChatMessage, 'facts'> & { facts?: ChatMessage['facts'] };

const session = (d: any) => `"${d.session.name}" (${d.session.code})`;

const describers: Record<string, Describe> = {
  'session.created': (d) => ({ title: 'Session created', text: `Session ${session(d)} was created.` }),
  'session.updated': (d) => ({
    title: 'Session updated',
    text: `Session ${session(d)} changed: ${(d.changed as string[]).join(', ') || 'settings'}.`,
  }),
  'session.archived': (d) => ({ title: 'Session archived', text: `Session ${session(d)} was archived.` }),
  'session.unarchived': (d) => ({
    title: 'Session restored',
    text: `Session ${session(d)} is active again.`,
  }),
  'participant.joined': (d) => ({
    title: 'Participant joined',
    text: `${d.participant.name} joined session ${d.session_code} as ${d.participant.role}.`,
  }),
  'vote.cast': (d) => ({
    title: 'Vote cast',
    text: `${d.participant.name} voted in session ${d.session_code} (${d.stats.votes_cast} of ${d.stats.total_participants} have voted).`,
  }),
  'story.created': (d) => ({
    title: 'Story added',
    text: `"${d.story.title}" was added to session ${d.session_code}.`,
  }),
  'story.revealed': (d) => {
    const votes = d.story.votes as Array<{ participant: { name: string | null }; value: string }>;
    const named = votes.every((v) => v.participant.name !== null);
    const estimate = d.story.final_estimate ?? 'no consensus';
    return {
      title: `Votes revealed: ${d.story.title}`,
      text:
        `Final estimate: ${estimate} (session ${d.session_code}, ${votes.length} vote${votes.length === 1 ? '' : 's'})` +
        (named || votes.length === 0 ? '.' : `. Votes: ${votes.map((v) => v.value).join(', ')}.`),
      facts: named ? votes.map((v) => ({ name: v.participant.name!, value: v.value })) : [],
    };
  },
  'story.reset': (d) => ({
    title: 'Votes cleared',
    text: `"${d.story.title}" in session ${d.session_code} is open for a new round of votes.`,
  }),
  'import.completed': (d) => ({
    title: 'Stories imported',
    text: `${d.story_ids.length} stories were imported from ${d.provider} into session ${d.session_code}.`,
  }),
  'estimates.synced': (d) => ({
    title: 'Estimates synced',
    text: `Estimates of session ${d.session_code}: ${d.synced} synced, ${d.failed} failed, ${d.skipped} skipped.`,
  }),
  'webhook.test': () => ({
    title: 'Test message from planning poker',
    text: 'This endpoint is set up: it will receive the events its webhook subscribes to.',
  }),
};
/* eslint-enable @typescript-eslint/no-explicit-any */

export function describe(payload: WebhookPayload): ChatMessage {
  const found = describers[payload.type]?.(payload.data) ?? {
    title: payload.type,
    text: `Event ${payload.type}.`,
  };
  return { facts: [], ...found };
}
