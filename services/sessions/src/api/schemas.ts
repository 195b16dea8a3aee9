import { pageQuery, urlInteger } from '@pp/http';
import { characters } from '@pp/contracts';
import { z } from 'zod';
import { CUSTOM_DECK, votingSystems } from '../domain/deck.ts';
import { MAX_ROW_ID } from '../domain/row-id.ts';
import { participantRoles } from '../domain/vote-rules.ts';

/**
 * The sessions service's public API as zod schemas: the routes validate with them and the gateway
 * builds its OpenAPI document from them (payloads are the resource-named keys of the envelope).
 */
export const isoDate = z.iso.datetime({ offset: true });
export const sessionStatuses = ['active', 'paused', 'completed', 'archived'] as const;

/** Cards are read in Unicode's composed form (NFC), as votes are: é typed either way is one card. */
const customDeckValues = z
  .array(characters(CUSTOM_DECK.maxCardLength, { trim: true, nfc: true, min: 1 }))
  .min(CUSTOM_DECK.minCards)
  .max(CUSTOM_DECK.maxCards)
  .refine((cards) => new Set(cards).size === cards.length, 'cards must be unique')
  .meta({
    description: `Cards of the custom deck in order: ${CUSTOM_DECK.minCards}..${CUSTOM_DECK.maxCards} unique strings`,
  });

/** The id of a folder or a workspace (a 32-bit key: a larger number cannot name one). */
export const rowId = z.number().int().positive().max(MAX_ROW_ID);

/** Settable on creation and by update. */
export const settings = {
  description: characters(10_000),
  workspace_id: rowId.nullable(),
  folder_id: rowId.nullable(),
  voting_system: z.enum(votingSystems).meta({
    description: 'fibonacci (default), tshirt, powers_of_two, or custom (needs custom_deck_values)',
  }),
  custom_deck_name: characters(64, { trim: true, min: 1 }).nullable(),
  custom_deck_values: customDeckValues.nullable(),
  record_vote_names: z.boolean().meta({ description: 'Keep voter names in history and exports' }),
  voteby_enabled: z.boolean(),
  vote_by_at: isoDate.nullable().meta({ description: 'Vote-by deadline, in the future when set' }),
  auto_reveal: z.boolean().meta({
    description:
      'Reveal as soon as every voting participant has voted. What completes the round (the last vote, ' +
      'removing the voter it waited for or making them an observer, switching this on, making current a ' +
      'story whose kept votes are complete) answers once the story is revealed and the next one open.',
  }),
  require_participant_token: z
    .boolean()
    .meta({ description: 'Votes must carry the X-Participant-Token header of the participant' }),
};
export const optionalSettings = Object.fromEntries(
  Object.entries(settings).map(([k, v]) => [k, v.optional()]),
) as {
  [K in keyof typeof settings]: z.ZodOptional<(typeof settings)[K]>;
};
export const name = characters(200, { trim: true, min: 1 });

/** Fields not listed (id, code, owner_id, ...) are refused with 422. */
export const createSessionBody = z
  .strictObject({ name, ...optionalSettings })
  .meta({ id: 'CreateSessionRequest' });
export const updateSessionBody = z
  .strictObject({ name: name.optional(), status: z.enum(sessionStatuses).optional(), ...optionalSettings })
  .meta({ id: 'UpdateSessionRequest' });

export const listSessionsQuery = pageQuery.extend({
  folder_id: z
    .union([z.literal('none'), urlInteger(z.number().int().positive().max(MAX_ROW_ID))])
    .optional()
    .meta({
      description:
        "A folder of the caller, or `none`: sessions in no folder (another account's folder: 403; no folder of this id: 404)",
    }),
  status: z.enum(sessionStatuses).optional(),
  sort: z.enum(['created_at', 'updated_at', 'name']).default('created_at'),
  order: z.enum(['asc', 'desc']).default('desc'),
});

export const codeParams = z.object({
  code: z.string().meta({ description: 'The 6-character session code (any case)' }),
});
export const participantParams = codeParams.extend({ id: urlInteger(z.number().int().positive()) });

export const joinBody = z
  .strictObject({
    name: characters(64, { trim: true, min: 1 })
      .optional()
      .meta({ description: 'Required without a bearer token; with one the profile name is used' }),
    role: z
      .enum(['participant', 'observer'])
      .optional()
      .meta({ description: 'observer: listed, does not vote' }),
  })
  .meta({ id: 'JoinRequest' });

export const voteBody = z
  .strictObject({
    participant_id: z.number().int().positive(),
    vote: characters(CUSTOM_DECK.maxCardLength, { nfc: true, min: 1 }).meta({
      description: "One of the session's cards (read as Unicode NFC, as the cards are)",
    }),
  })
  .meta({ id: 'VoteRequest' });

export const participantRoleBody = z
  .strictObject({ role: z.enum(participantRoles) })
  .meta({ id: 'ParticipantRoleRequest' });

export const internalSessionParams = z.object({ codeOrId: z.string() });
export const sessionIdParams = z.object({ sessionId: z.uuid() });
/** Another unit asks whether a participant token is the room's moderator's. */
export const moderatorQuestion = z.strictObject({ participant_token: z.string().min(1).max(200) });
export const roundParams = z.object({ sessionId: z.uuid(), storyId: z.uuid() });

// ---- responses ----

export const currentStory = z
  .object({
    id: z.uuid(),
    title: z.string(),
    status: z.enum(['pending', 'voting', 'revealed']),
    position: z.number().int(),
  })
  .meta({ id: 'CurrentStory' });

export const roundCountdown = z
  .object({
    story_id: z.uuid().meta({ description: 'The round it counts down: the current story' }),
    ends_at: isoDate.meta({ description: 'When it reaches zero (the server clock)' }),
    seconds: z.number().int().meta({ description: 'Its length as started' }),
    at_zero: z.enum(['reveal', 'close']).meta({
      description:
        '`reveal`: the round is revealed at zero (within a second or two); `close`: votes get 409 `voting_closed` from then on',
    }),
  })
  .meta({ id: 'RoundCountdown' });

export const countdownBody = z
  .strictObject({
    seconds: z
      .number()
      .int()
      .min(5)
      .max(3600)
      .meta({ description: 'Length in seconds, 5..3600 (30, 60, 120, 300 or any other)' }),
    at_zero: z
      .enum(['reveal', 'close'])
      .default('reveal')
      .meta({ description: 'What happens at zero: reveal the round (default) or close it to votes' }),
  })
  .meta({ id: 'CountdownRequest' });

export const publicSession = z
  .object({
    id: z.uuid(),
    name: z.string(),
    status: z.enum(sessionStatuses),
    code: z.string().length(6),
    participants_count: z.number().int(),
    current_story: currentStory.nullable(),
    countdown: roundCountdown
      .nullable()
      .meta({ description: "The open round's countdown, if the owner started one; it ends with its round" }),
    voting_system: z.enum(votingSystems),
    deck: z.array(z.string()).meta({ description: 'The cards a vote can be, in deck order' }),
    voteby_enabled: z.boolean(),
    vote_by_at: isoDate.nullable(),
  })
  .meta({ id: 'PublicSession' });

export const session = publicSession
  .extend({
    owner_id: z.string(),
    description: z.string(),
    workspace_id: z.number().int().nullable(),
    folder_id: z.number().int().nullable(),
    record_vote_names: z.boolean(),
    custom_deck_name: z.string().nullable(),
    custom_deck_values: z.array(z.string()).nullable(),
    auto_reveal: z.boolean(),
    require_participant_token: z.boolean(),
    created_at: isoDate,
    updated_at: isoDate,
  })
  .meta({ id: 'Session' });

/** A session as a look-up or a join answers it: the full record to its owner, the public fields to anyone else. */
export const sessionForCaller = z.xor([session, publicSession]).meta({
  description: "Session (the full record) when the caller is the session's owner, else PublicSession",
});

export const participant = z
  .object({ id: z.number().int(), name: z.string(), role: z.enum(participantRoles) })
  .meta({ id: 'Participant' });

export const roomParticipant = participant
  .extend({
    connected: z.boolean().meta({
      description:
        'Whether one of its live room streams (opened with its X-Participant-Token) is open, on any replica; false a few seconds after its last one closed',
    }),
  })
  .meta({ id: 'RoomParticipant' });

export const joinedParticipant = participant
  .extend({
    token: z
      .string()
      .meta({ description: 'Identifies this participant: send it as X-Participant-Token when voting' }),
  })
  .meta({ id: 'JoinedParticipant' });

export const vote = z
  .object({
    id: z.number().int(),
    participant_id: z.number().int(),
    story_id: z.uuid(),
    value: z.string(),
    updated_at: isoDate,
  })
  .meta({ id: 'Vote' });

export const voteStats = z
  .object({ votes_cast: z.number().int(), total_participants: z.number().int(), all_voted: z.boolean() })
  .meta({ id: 'VoteStats', description: 'Observers are not counted' });
