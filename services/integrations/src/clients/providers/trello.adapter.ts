import { z } from 'zod';
import { estimateValue, type ExternalIssue } from '../../domain/issues.ts';
import { root, text, type AdapterDeps, type IssueAdapter, type ProviderConnection } from './adapter.ts';
import { jsonOf } from './provider-http.ts';

const PROVIDER = 'Trello';
const CARD_FIELDS = 'id,name,desc,url,shortUrl,labels,idList';
const ID = /^[0-9a-fA-F]{24}$/;

/** What the adapter reads of Trello's answers (see jsonOf: a card without its id refuses the answer). */
const trelloCard = z.looseObject({
  id: z.string().regex(ID),
  name: z.string().nullish(),
  desc: z.string().nullish(),
  url: z.string().nullish(),
  labels: z.array(z.looseObject({ name: z.string().nullish(), color: z.string().nullish() })).nullish(),
  idList: z.string().nullish(),
});
type Card = z.output<typeof trelloCard>;
const trelloMember = z.looseObject({ username: z.string() });
const trelloBoard = z.looseObject({ name: z.string() });
// a write answers what it wrote: the card's custom field item, the comment's action
const trelloFieldItem = z.looseObject({ id: z.string() });
const trelloCommentAction = z.looseObject({ id: z.string() });

/** Trello's REST API: key and token in an OAuth-style header; a board's cards come in one answer. */
export function trelloAdapter(deps: AdapterDeps): IssueAdapter {
  const api = root(deps.apiUrl);
  const http = (c: ProviderConnection) =>
    deps.http({
      connectionId: c.id,
      // a 429 from Trello says nothing of when to come back: a fixed pause
      rateLimit: { defaultWaitMs: deps.backoffMs ?? 1_000 },
      auth: async () => {
        const { key, token } = await c.credentials();
        return {
          Authorization: `OAuth oauth_consumer_key="${key}", oauth_token="${token}"`,
          Accept: 'application/json',
        };
      },
    });
  const toIssue = (card: Card): ExternalIssue => ({
    externalId: card.id,
    title: card.name ?? '',
    description: card.desc ?? '',
    acceptanceCriteria: '',
    url: card.url ?? null,
    labels: (card.labels ?? []).map((l) => l.name || l.color || '').filter(Boolean),
    estimate: null,
  });
  const board = (c: ProviderConnection) => `${api}/boards/${encodeURIComponent(text(c.settings.board_id))}`;
  return {
    source: () => 'trello',
    idOf: (id) => (ID.test(id) ? id.toLowerCase() : id),
    urls: () => [],
    async test(c) {
      const me = jsonOf(
        PROVIDER,
        await http(c)({ url: `${api}/members/me`, params: { fields: 'id,username,fullName' } }),
        trelloMember,
      );
      jsonOf(
        PROVIDER,
        await http(c)({ url: board(c), params: { fields: 'name,url' }, notFound: 'the board' }),
        trelloBoard,
      );
      return { account: me.username, warnings: [] };
    },
    async page(c) {
      const cards = jsonOf(
        PROVIDER,
        await http(c)({
          url: `${board(c)}/cards`,
          params: { fields: CARD_FIELDS },
          notFound: 'the board',
        }),
        z.array(trelloCard),
      );
      const list = text(c.settings.list_id);
      return { items: cards.filter((card) => !list || card.idList === list).map(toIssue) };
    },
    async fetch(c, ids) {
      const found: ExternalIssue[] = [];
      for (const id of ids.filter((i) => ID.test(i))) {
        const res = await http(c)({
          url: `${api}/cards/${id}`,
          params: { fields: CARD_FIELDS },
          notFound: `card ${id}`,
        }).catch((err: { code?: string }) => {
          if (err.code === 'provider_not_found') return undefined;
          throw err;
        });
        if (res) found.push(toIssue(jsonOf(PROVIDER, res, trelloCard)));
      }
      return found;
    },
    async writeEstimate(c, id, estimate) {
      const field = text(c.settings.custom_field_id);
      const value = estimateValue(estimate);
      if (field && typeof value === 'number') {
        const res = await http(c)({
          method: 'PUT',
          url: `${api}/cards/${encodeURIComponent(id)}/customField/${encodeURIComponent(field)}/item`,
          data: { value: { number: String(value) } },
          notFound: `card ${id}`,
        });
        jsonOf(PROVIDER, res, trelloFieldItem);
        return ['field'];
      }
      const res = await http(c)({
        method: 'POST',
        url: `${api}/cards/${encodeURIComponent(id)}/actions/comments`,
        params: { text: `Estimated in planning poker: ${estimate}` },
        notFound: `card ${id}`,
      });
      jsonOf(PROVIDER, res, trelloCommentAction);
      return ['comment'];
    },
  };
}
