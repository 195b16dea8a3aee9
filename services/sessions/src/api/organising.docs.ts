import { z } from 'zod';
import { pageMetaSchema, pageQuery, type UnitDocs } from '@pp/http';
import {
  createFolderBody,
  createTemplateBody,
  folder,
  folderParams,
  sessionFromTemplate,
  sessionFromTemplateBody,
  template,
  templateParams,
  templateSummary,
  updateFolderBody,
  updateTemplateBody,
  updateWorkspaceBody,
  workspace,
} from './organising.schemas.ts';

const folderPayload = z.object({ folder });
const templatePayload = z.object({ template });
const workspacePayload = z.object({ workspace });
const FOLDER_404 = {
  403: { description: "Another account's folder (`forbidden`)" },
  404: { description: 'No folder has this id (`folder_not_found`)' },
};
const TEMPLATE_404 = {
  403: { description: "Another account's template (`forbidden`)" },
  404: { description: 'No template has this id (`template_not_found`)' },
};
const PAGE_ERRORS = {
  400: { description: 'A query value of the wrong type, e.g. per_page=abc (`invalid_query`)' },
  422: { description: 'A query value out of range, e.g. per_page=0 or 101' },
};

/** Folders, the workspace and its templates: the documentation of each path, keyed like the route table. */
export const organisingApi = {
  'GET /folders': {
    summary: "The caller's folders by name, paginated",
    query: pageQuery,
    responses: {
      200: {
        description: 'A page of folders',
        payload: z.object({ folders: z.array(folder), meta: pageMetaSchema }),
      },
      ...PAGE_ERRORS,
    },
  },
  'POST /folders': {
    summary: 'Create a folder',
    body: createFolderBody,
    responses: {
      201: { description: 'The folder', payload: folderPayload },
      409: {
        description:
          'The caller has a folder of this name already, in any case or Unicode spelling (`duplicate`)',
      },
      422: { description: 'A name not of 1..64 characters, a colour not #rrggbb, or an unknown field' },
    },
  },
  'GET /folders/{id}': {
    summary: 'A folder',
    params: folderParams,
    responses: { 200: { description: 'The folder', payload: folderPayload }, ...FOLDER_404 },
  },
  'PATCH /folders/{id}': {
    summary: 'Rename or recolour a folder',
    params: folderParams,
    body: updateFolderBody,
    responses: {
      200: { description: 'The folder', payload: folderPayload },
      ...FOLDER_404,
      409: {
        description:
          'The caller has another folder of this name, in any case or Unicode spelling (`duplicate`)',
      },
      422: { description: 'Invalid or unknown fields' },
    },
  },
  'DELETE /folders/{id}': {
    summary: 'Delete a folder; its sessions stay, in no folder',
    params: folderParams,
    responses: { 200: { description: 'The deleted folder', payload: folderPayload }, ...FOLDER_404 },
  },
  'GET /workspace': {
    summary: "The caller's workspace (made on first use) and the defaults of new sessions",
    responses: { 200: { description: 'The workspace', payload: workspacePayload } },
  },
  'PATCH /workspace': {
    summary: 'Rename the workspace and change the defaults it names (the others stay)',
    description:
      'A new session takes each setting from its request, else its template, else these defaults, else the built-in ones. With voteby_enabled, a new session without vote_by_at gets a deadline vote_by_minutes after its creation.',
    body: updateWorkspaceBody,
    responses: {
      200: { description: 'The workspace', payload: workspacePayload },
      422: {
        description: 'Invalid or unknown fields; a custom deck without cards (`defaults.custom_deck_values`)',
      },
    },
  },
  'GET /workspace/templates': {
    summary: 'Room templates by name, paginated (without their stories: stories_count says how many)',
    query: pageQuery,
    responses: {
      200: {
        description: 'A page of templates',
        payload: z.object({ templates: z.array(templateSummary), meta: pageMetaSchema }),
      },
      ...PAGE_ERRORS,
    },
  },
  'POST /workspace/templates': {
    summary: 'Create a room template: settings, and stories in order',
    body: createTemplateBody,
    responses: {
      201: { description: 'The template', payload: templatePayload },
      409: {
        description:
          'The caller has a template of this name already, in any case or Unicode spelling (`duplicate`)',
      },
      422: { description: 'Invalid or unknown fields, more than 100 stories, a custom deck without cards' },
    },
  },
  'GET /workspace/templates/{template}': {
    summary: 'A room template with its stories',
    params: templateParams,
    responses: { 200: { description: 'The template', payload: templatePayload }, ...TEMPLATE_404 },
  },
  'PATCH /workspace/templates/{template}': {
    summary: 'Change a room template (settings and stories are replaced whole)',
    params: templateParams,
    body: updateTemplateBody,
    responses: {
      200: { description: 'The template', payload: templatePayload },
      ...TEMPLATE_404,
      409: {
        description:
          'The caller has another template of this name, in any case or Unicode spelling (`duplicate`)',
      },
      422: { description: 'Invalid or unknown fields' },
    },
  },
  'DELETE /workspace/templates/{template}': {
    summary: 'Delete a room template (sessions made from it stay)',
    params: templateParams,
    responses: { 200: { description: 'The deleted template', payload: templatePayload }, ...TEMPLATE_404 },
  },
  'POST /workspace/templates/{template}/sessions': {
    summary: 'Create a session from a template: its settings and its stories in order, the first one open',
    description:
      'Answers once the session and every story exist and the first story takes votes. If the stories cannot be added, no session is left behind and the error is answered (503 when the stories service cannot be reached).',
    params: templateParams,
    body: sessionFromTemplateBody,
    responses: {
      201: { description: 'The session (full record) and its stories', payload: sessionFromTemplate },
      403: { description: "Another account's template, folder or workspace (`forbidden`)" },
      404: { description: '`template_not_found`, `folder_not_found` or `workspace_not_found`' },
      422: { description: 'Invalid or unknown fields' },
      503: { description: 'The stories service did not answer (`stories_unavailable`): no session was made' },
    },
  },
} satisfies UnitDocs;
