import { z } from 'zod';

/** An error answer: `success: false`, a message, a stable code and, on 422 only, `errors` by field path. */
export const errorEnvelopeSchema = z
  .object({
    success: z.literal(false),
    message: z.string(),
    error: z.object({
      code: z.string().meta({ description: 'Stable snake_case code, e.g. `invalid_token`, `duplicate`' }),
    }),
    errors: z
      .record(z.string(), z.array(z.string()))
      .optional()
      .meta({ description: 'Only on 422: messages by field path' }),
  })
  .meta({ id: 'ErrorEnvelope' });

/** A success whose payload a unit has not described yet: resource-named keys at the top level and under `data`. */
export const genericSuccessSchema = z
  .looseObject({
    success: z.literal(true),
    data: z.record(z.string(), z.unknown()),
    message: z.string().optional(),
  })
  .meta({ id: 'SuccessEnvelope' });

/** The success envelope of a payload: its keys at the top level and again under `data`. */
export const successSchemaOf = (payload: z.ZodObject) =>
  z.object({ success: z.literal(true), ...payload.shape, data: payload, message: z.string().optional() });
