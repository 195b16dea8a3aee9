import { estimateValue, type ExternalIssue } from '../../domain/issues.ts';
import { ProviderRejectedError } from '../../errors.ts';
import {
  root,
  text,
  tokenOf,
  type AdapterDeps,
  type IssueAdapter,
  type ProviderConnection,
} from './adapter.ts';
import { jsonOf } from './provider-http.ts';

const PROVIDER = 'Notion';
const VERSION = '2025-09-03';
const ID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

type Property = { type?: string } & Record<string, unknown>;
interface Page {
  id: string;
  url: string;
  properties: Record<string, Property>;
}

const plain = (value: unknown) =>
  Array.isArray(value) ? value.map((t: { plain_text?: string }) => t.plain_text ?? '').join('') : '';

/** The text of a property, whatever its type (title, rich_text, number, select, multi_select). */
function propertyText(p: Property | undefined): string | null {
  if (!p) return null;
  if (p.type === 'title' || p.type === 'rich_text') return plain(p[p.type]);
  if (p.type === 'number') return p.number === null || p.number === undefined ? null : String(p.number);
  if (p.type === 'select') return (p.select as { name?: string } | null)?.name ?? null;
  return null;
}

/** Notion's API (version 2025-09-03): a database's data source queried, properties by their exact names. */
export function notionAdapter(deps: AdapterDeps): IssueAdapter {
  const api = root(deps.apiUrl);
  const http = (c: ProviderConnection) =>
    deps.http({
      connectionId: c.id,
      auth: async () => ({
        Authorization: `Bearer ${tokenOf(await c.credentials())}`,
        'Notion-Version': VERSION,
      }),
    });
  const source = (c: ProviderConnection) =>
    `${api}/data_sources/${encodeURIComponent(text(c.settings.data_source_id))}`;
  const schema = async (c: ProviderConnection) =>
    jsonOf<{ properties: Record<string, { type: string }> }>(
      PROVIDER,
      await http(c)({ url: source(c), notFound: 'the data source' }),
    );
  const toIssue = (c: ProviderConnection, page: Page): ExternalIssue => {
    const labels =
      page.properties.Tags?.type === 'multi_select'
        ? (page.properties.Tags.multi_select as Array<{ name: string }>)
        : [];
    return {
      externalId: page.id,
      title: propertyText(page.properties[text(c.settings.title_property)]) ?? '',
      description: '',
      acceptanceCriteria: '',
      url: page.url,
      labels: labels.map((l) => l.name),
      estimate: propertyText(page.properties[text(c.settings.estimate_property)]),
    };
  };
  return {
    source: (s) => `notion:${text(s.data_source_id)}`.toLowerCase(),
    urls: () => [],
    async test(c) {
      const me = jsonOf<{ name?: string; id: string }>(PROVIDER, await http(c)({ url: `${api}/users/me` }));
      const { properties } = await schema(c);
      const warnings: string[] = [];
      if (properties[text(c.settings.title_property)]?.type !== 'title')
        warnings.push(`no title property named ${text(c.settings.title_property)}`);
      const estimate = text(c.settings.estimate_property);
      if (estimate && !['number', 'select', 'rich_text'].includes(properties[estimate]?.type ?? ''))
        warnings.push(`no number, select or text property named ${estimate}: estimates will be comments`);
      return { account: me.name ?? me.id, warnings };
    },
    async page(c, cursor) {
      const res = await http(c)({
        method: 'POST',
        url: `${source(c)}/query`,
        data: { page_size: 100, ...(cursor ? { start_cursor: cursor } : {}) },
        notFound: 'the data source',
      });
      const body = jsonOf<{ results: Page[]; has_more: boolean; next_cursor: string | null }>(PROVIDER, res);
      return {
        items: body.results.map((p) => toIssue(c, p)),
        next: body.has_more && body.next_cursor ? body.next_cursor : undefined,
      };
    },
    async fetch(c, ids) {
      const found: ExternalIssue[] = [];
      for (const id of ids.filter((i) => ID.test(i))) {
        const res = await http(c)({ url: `${api}/pages/${id}`, notFound: `page ${id}` }).catch(
          (err: { code?: string }) => {
            if (err.code === 'provider_not_found') return undefined;
            throw err;
          },
        );
        if (res) found.push(toIssue(c, jsonOf<Page>(PROVIDER, res)));
      }
      return found;
    },
    async writeEstimate(c, id, estimate) {
      if (!ID.test(id)) throw new ProviderRejectedError(PROVIDER, 'not a page id');
      const name = text(c.settings.estimate_property);
      const type = name ? (await schema(c)).properties[name]?.type : undefined;
      const value = estimateValue(estimate);
      const property =
        type === 'number' && typeof value === 'number'
          ? { number: value }
          : type === 'select'
            ? { select: { name: estimate } }
            : type === 'rich_text'
              ? { rich_text: [{ text: { content: estimate } }] }
              : undefined;
      if (property) {
        await http(c)({
          method: 'PATCH',
          url: `${api}/pages/${id}`,
          data: { properties: { [name]: property } },
          notFound: `page ${id}`,
        });
        return ['field'];
      }
      await http(c)({
        method: 'POST',
        url: `${api}/comments`,
        data: { parent: { page_id: id }, rich_text: [{ text: { content: `Estimate: ${estimate}` } }] },
      });
      return ['comment'];
    },
  };
}
