import { cutText } from '@pp/contracts';
import { describe, type ChatMessage } from './chat-message.ts';
import type { WebhookPayload } from './payload.ts';

export const webhookKinds = ['generic', 'slack', 'teams', 'discord'] as const;
export type WebhookKind = (typeof webhookKinds)[number];

/** At most `max` facts (a chat tool's limit of fields): past it, the last place says how many are not shown. */
function upTo(facts: ChatMessage['facts'], max: number): ChatMessage['facts'] {
  if (facts.length <= max) return facts;
  return [...facts.slice(0, max - 1), { name: 'More votes', value: `${facts.length - (max - 1)} not shown` }];
}

/** Slack's mrkdwn: only &, < and > are taken as markup (links, mentions). */
const slackEscape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * Discord's markdown characters, so a story title cannot format (or hide) the message, link elsewhere
 * (`[text](url)`), or show a mention, channel or command (`<@id>`, `<#id>`, `</name:id>`); a number and a
 * dot opening a line would start a list.
 */
const discordEscape = (text: string) =>
  text.replace(/([\\*_~`|<>#[\]()-])/g, '\\$1').replace(/^(\s*\d+)\./gm, '$1\\.');

/**
 * Adaptive Card markdown (a CommonMark subset, in TextBlocks and facts): a backslash makes any of these
 * literal, so a name cannot link elsewhere (`[text](url)`, `<url>`), format the card, or open a list.
 */
const teamsEscape = (text: string) =>
  text.replace(/([\\*_~`|<>#+&[\]()-])/g, '\\$1').replace(/^(\s*\d+)\./gm, '$1\\.');

/** Slack incoming webhook: `text` is the notification's fallback, `blocks` what the channel shows. */
function slack(m: ChatMessage) {
  const blocks: unknown[] = [
    {
      type: 'section',
      text: { type: 'mrkdwn', text: cutText(`*${slackEscape(m.title)}*\n${slackEscape(m.text)}`, 3000) },
    },
  ];
  // Slack takes up to 50 blocks of up to 10 fields: five of them keep the message short.
  const facts = upTo(m.facts, 50);
  for (let i = 0; i < facts.length; i += 10)
    blocks.push({
      type: 'section',
      fields: facts.slice(i, i + 10).map((f) => ({
        type: 'mrkdwn',
        text: cutText(`*${slackEscape(f.name)}*\n${slackEscape(f.value)}`, 2000),
      })),
    });
  return { text: cutText(slackEscape(`${m.title}: ${m.text}`), 3000), blocks };
}

/** Teams workflow webhook: one Adaptive Card. */
function teams(m: ChatMessage) {
  const body: unknown[] = [
    { type: 'TextBlock', text: teamsEscape(m.title), weight: 'Bolder', size: 'Medium', wrap: true },
    { type: 'TextBlock', text: teamsEscape(m.text), wrap: true },
  ];
  if (m.facts.length > 0)
    body.push({
      type: 'FactSet',
      facts: m.facts.map((f) => ({ title: teamsEscape(f.name), value: teamsEscape(f.value) })),
    });
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body,
        },
      },
    ],
  };
}

/** Discord webhook: the text in `content`, votes as embed fields, and no mention ever pings anyone. */
function discord(m: ChatMessage) {
  const content = cutText(`**${discordEscape(m.title)}**\n${discordEscape(m.text)}`, 2000);
  const embeds =
    m.facts.length === 0
      ? []
      : [
          {
            title: cutText(discordEscape(m.title), 256),
            // Discord takes 25 fields to an embed.
            fields: upTo(m.facts, 25).map((f) => ({
              name: cutText(discordEscape(f.name), 256),
              value: cutText(discordEscape(f.value), 1024),
              inline: true,
            })),
          },
        ];
  return { content, embeds, allowed_mentions: { parse: [] } };
}

/** The JSON body a webhook of this kind receives for a delivery. */
export function bodyFor(kind: WebhookKind, payload: WebhookPayload): unknown {
  if (kind === 'generic') return payload;
  const message = describe(payload);
  return kind === 'slack' ? slack(message) : kind === 'teams' ? teams(message) : discord(message);
}
