import type { z } from 'zod';

/**
 * How a unit documents one endpoint: zod schemas of its params, query and body, and per status the
 * payload (the resource-named keys of the envelope) and any answer sent outside the envelope (`content`:
 * a schema per media type, e.g. the CSV of an export or a JSON-RPC answer). A unit exports a record of
 * these keyed "METHOD /path"; the gateway plugs it into its route table's OpenAPI document.
 */
export interface RouteDoc {
  /**
   * Answered without a token too (a valid one is still read: the request is then the user's). Without
   * it the path needs a token, and the gateway refuses a request without one (401) before it reaches
   * the unit. The gateway's route table says the same of each path (a test compares them).
   */
  public?: boolean;
  /**
   * Needs a bearer token, or instead a participant token (`X-Participant-Token`) that the unit checks
   * (round control by the room's moderator). The gateway refuses a request with neither (401), and
   * treats a bearer token given as on a path that needs one: 401 when it is not valid, 503 when it
   * cannot be checked (never on as anonymous, which the unit would refuse as signed out).
   */
  orParticipantToken?: boolean;
  summary?: string;
  description?: string;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  responses?: Record<
    number,
    {
      description: string;
      payload?: z.ZodObject;
      /** Media types answered as they are, not in the envelope; beside the payload's `application/json` or instead of it. */
      content?: Record<string, z.ZodType>;
      headers?: Record<string, string>;
    }
  >;
}

export type UnitDocs = Record<string, RouteDoc>;

/** What an endpoint of round control (requireRoomController) says of who may call it. */
export const ROOM_CONTROL_DOC =
  " Run by the session's owner (bearer token), or by the room's moderator: the participant whose role is " +
  "`moderator` (the owner's own seat, or the one the role was handed to with PATCH " +
  '/sessions/{code}/participants/{id}), sending its `X-Participant-Token` and no bearer token. Such a request ' +
  "counts against the participant's rate limit when its path names the room's code, else against the address.";

/**
 * The refusal of round control: anyone but the owner or the moderator. (Its 401, for a request naming
 * no one, is the gateway's to document, as for every path that needs credentials.)
 */
export const ROOM_CONTROL_REFUSAL = {
  403: {
    description: "Not the session's owner, nor the holder of its moderator's participant token (`forbidden`)",
  },
};
