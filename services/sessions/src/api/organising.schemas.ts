import { characters } from '@pp/contracts';
import { z } from 'zod';
import { MAX_TEMPLATE_STORIES, MAX_VOTE_BY_MINUTES } from '../domain/presets.ts';
import { isoDate, name, optionalSettings, session, settings } from './schemas.ts';

/** Folders, the workspace and its templates: request and response shapes. */

export const folderParams = z.object({
  id: z.string().max(64).meta({ description: "A folder id of the caller's (else 404)" }),
});
export const templateParams = z.object({
  template: z.string().max(64).meta({ description: "A template id of the caller's (else 404)" }),
});

/**
 * A folder's or a template's name is one per owner in any case, and in any Unicode spelling too: an
 * accent typed as a combining mark (e + U+0301) is kept as the accented letter (é), as most keyboards
 * type it, so the two are the same name (NFC).
 */
const ownerUniqueName = (max: number) => characters(max, { trim: true, nfc: true, min: 1 });
const folderName = ownerUniqueName(64);
const color = z
  .string()
  .regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour of the form #rrggbb')
  .meta({ description: 'A colour of the form #rrggbb (kept lowercase)', example: '#3b82f6' });

export const createFolderBody = z
  .strictObject({ name: folderName, color })
  .meta({ id: 'CreateFolderRequest' });
export const updateFolderBody = z
  .strictObject({ name: folderName.optional(), color: color.optional() })
  .meta({ id: 'UpdateFolderRequest' });

export const folder = z
  .object({
    id: z.number().int(),
    name: z.string(),
    color: z.string(),
    created_at: isoDate,
    updated_at: isoDate,
  })
  .meta({ id: 'Folder' });

/** The settings a workspace's defaults and a template may hold: a session's, the deadline as minutes. */
const presetFields = {
  voting_system: settings.voting_system,
  custom_deck_name: settings.custom_deck_name,
  custom_deck_values: settings.custom_deck_values,
  record_vote_names: settings.record_vote_names,
  voteby_enabled: settings.voteby_enabled,
  vote_by_minutes: z.number().int().min(1).max(MAX_VOTE_BY_MINUTES).meta({
    description: 'With voteby_enabled, a new session votes until this many minutes after its creation',
  }),
  auto_reveal: settings.auto_reveal,
  require_participant_token: settings.require_participant_token,
};
const optionalPreset = Object.fromEntries(
  Object.entries(presetFields).map(([k, v]) => [k, v.optional()]),
) as {
  [K in keyof typeof presetFields]: z.ZodOptional<(typeof presetFields)[K]>;
};
export const presetInput = z.strictObject(optionalPreset).meta({ id: 'SessionPresetRequest' });

export const defaults = z.object(presetFields).meta({
  id: 'WorkspaceDefaults',
  description: 'What a new session starts with, unless its template or its request names a setting',
});
export const presetOutput = z.object(optionalPreset).meta({
  id: 'TemplateSettings',
  description: 'Only the settings the template names; the workspace defaults stand for the others',
});

export const updateWorkspaceBody = z
  .strictObject({
    name: characters(100, { trim: true, min: 1 }).optional(),
    defaults: presetInput
      .optional()
      .meta({ description: 'The defaults to change; the ones not named stay as they are' }),
  })
  .meta({ id: 'UpdateWorkspaceRequest' });

export const workspace = z
  .object({ id: z.number().int(), name: z.string(), defaults, created_at: isoDate, updated_at: isoDate })
  .meta({ id: 'Workspace' });

const templateName = ownerUniqueName(100);
/** A story's text, with the limits the stories service applies to every story. */
const storyText = z.strictObject({
  title: characters(200, { trim: true, min: 1 }),
  description: characters(10_000).optional(),
  acceptance_criteria: characters(10_000).optional(),
});
const templateStories = z
  .array(storyText)
  .max(MAX_TEMPLATE_STORIES)
  .meta({ description: `Up to ${MAX_TEMPLATE_STORIES} stories, in the order a session gets them` });

export const createTemplateBody = z
  .strictObject({
    name: templateName,
    description: characters(10_000).optional(),
    settings: presetInput.optional(),
    stories: templateStories.optional(),
  })
  .meta({ id: 'CreateTemplateRequest' });
export const updateTemplateBody = z
  .strictObject({
    name: templateName.optional(),
    description: characters(10_000).optional(),
    settings: presetInput.optional().meta({ description: "Replaces the template's settings" }),
    stories: templateStories.optional().meta({ description: "Replaces the template's stories" }),
  })
  .meta({ id: 'UpdateTemplateRequest' });

const templateStory = z.object({
  title: z.string(),
  description: z.string(),
  acceptance_criteria: z.string(),
});
const templateFields = {
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  settings: presetOutput,
  stories_count: z.number().int(),
  created_at: isoDate,
  updated_at: isoDate,
};
export const templateSummary = z.object(templateFields).meta({ id: 'TemplateSummary' });
export const template = z
  .object({ ...templateFields, stories: z.array(templateStory) })
  .meta({ id: 'Template' });

export const sessionFromTemplateBody = z
  .strictObject({
    name: name.optional().meta({ description: "Default: the template's name" }),
    ...optionalSettings,
  })
  .meta({
    id: 'SessionFromTemplateRequest',
    description:
      "Any field of a new session; the settings not named come from the template, then the workspace defaults. `description` defaults to the template's.",
  });

export const sessionFromTemplate = z.object({
  session,
  stories: z.array(
    z.object({
      id: z.uuid(),
      title: z.string(),
      status: z.enum(['pending', 'voting', 'revealed']),
      position: z.number().int(),
    }),
  ),
});
