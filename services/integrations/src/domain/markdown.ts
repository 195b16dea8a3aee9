import sanitizeHtml from 'sanitize-html';
import TurndownService from 'turndown';
import { z } from 'zod';

/**
 * Tracker text as markdown, in one place: HTML (Azure DevOps, Jira's rendered fields) is sanitized
 * first (turndown alone keeps `<script>` text and `javascript:` links), then converted; Atlassian
 * Document Format (Jira's JSON) is walked node by node.
 */
const turndown = new TurndownService({
  headingStyle: 'atx',
  codeBlockStyle: 'fenced',
  bulletListMarker: '-',
});

const ALLOWED = {
  allowedTags: [
    ...['p', 'br', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'pre', 'code'],
    ...['ul', 'ol', 'li', 'strong', 'b', 'em', 'i', 's', 'del', 'a', 'div', 'span'],
    ...['table', 'thead', 'tbody', 'tr', 'th', 'td'],
  ],
  allowedAttributes: { a: ['href'] },
  allowedSchemes: ['http', 'https', 'mailto'],
};

export function htmlToMarkdown(html: string | null | undefined): string {
  if (!html) return '';
  return turndown.turndown(sanitizeHtml(html, ALLOWED)).trim();
}

interface AdfNode {
  type?: string;
  text?: string;
  content?: AdfNode[];
  attrs?: Record<string, unknown>;
  marks?: Array<{ type?: string; attrs?: Record<string, unknown> }>;
}

const adfAttrs = z.record(z.string(), z.unknown()).optional();
/** An ADF node as the walk below reads it (a tracker's answer, checked before the walk; other keys ignored). */
export const adfNodeSchema = z.looseObject({
  type: z.string().optional(),
  text: z.string().optional(),
  get content(): z.ZodOptional<z.ZodArray<typeof adfNodeSchema>> {
    return z.array(adfNodeSchema).optional();
  },
  attrs: adfAttrs,
  marks: z.array(z.looseObject({ type: z.string().optional(), attrs: adfAttrs })).optional(),
});

function marked(node: AdfNode): string {
  let text = node.text ?? '';
  for (const mark of node.marks ?? []) {
    if (mark.type === 'strong') text = `**${text}**`;
    else if (mark.type === 'em') text = `_${text}_`;
    else if (mark.type === 'code') text = `\`${text}\``;
    else if (mark.type === 'strike') text = `~~${text}~~`;
    else if (
      mark.type === 'link' &&
      typeof mark.attrs?.href === 'string' &&
      /^https?:|^mailto:/.test(mark.attrs.href)
    )
      text = `[${text}](${mark.attrs.href})`;
  }
  return text;
}

const inline = (nodes: AdfNode[] = []): string => nodes.map((n) => adfNode(n, 0)).join('');

function listItems(node: AdfNode, depth: number, ordered: boolean): string {
  return (node.content ?? [])
    .map((item, i) => {
      const [first, ...rest] = (item.content ?? []).map((c) => adfNode(c, depth + 1));
      const marker = ordered ? `${i + 1}.` : '-';
      const nested = rest.map((r) => `\n${r}`).join('');
      return `${'  '.repeat(depth)}${marker} ${first ?? ''}${nested}`;
    })
    .join('\n');
}

function adfNode(node: AdfNode, depth: number): string {
  switch (node.type) {
    case 'text':
      return marked(node);
    case 'hardBreak':
      return '\n';
    case 'mention':
      return String(node.attrs?.text ?? '@someone');
    case 'emoji':
      return String(node.attrs?.text ?? node.attrs?.shortName ?? '');
    case 'inlineCard':
      return String(node.attrs?.url ?? '');
    case 'paragraph':
      return inline(node.content);
    case 'heading':
      return `${'#'.repeat(Math.min(6, Number(node.attrs?.level ?? 1)))} ${inline(node.content)}`;
    case 'bulletList':
      return listItems(node, depth, false);
    case 'orderedList':
      return listItems(node, depth, true);
    case 'codeBlock':
      return `\`\`\`${String(node.attrs?.language ?? '')}\n${inline(node.content)}\n\`\`\``;
    case 'blockquote':
      return blocks(node.content, depth)
        .split('\n')
        .map((l) => `> ${l}`)
        .join('\n');
    case 'rule':
      return '---';
    default:
      // panels, tables, expands and whatever comes next: their text, block by block
      return node.content ? blocks(node.content, depth) : (node.text ?? '');
  }
}

const blocks = (nodes: AdfNode[] = [], depth = 0) =>
  nodes
    .map((n) => adfNode(n, depth))
    .filter((s) => s !== '')
    .join('\n\n');

/** An ADF document (checked with `adfNodeSchema`) as markdown; a plain string (REST v2) as it is. */
export function adfToMarkdown(doc: AdfNode | string | null | undefined): string {
  if (!doc || typeof doc !== 'object') return typeof doc === 'string' ? doc : '';
  return blocks(doc.content).trim();
}

/** A plain ADF document of one paragraph (Jira comments take ADF). */
export const adfParagraph = (text: string) => ({
  type: 'doc',
  version: 1,
  content: [{ type: 'paragraph', content: [{ type: 'text', text }] }],
});
