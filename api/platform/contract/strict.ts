// Unknown names are an error, on every face: an agent that asks for `credit_score` must learn it was
// not answered, instead of getting the default tier's rate as if it had been.
import { z } from 'zod';
import { unknownNamesMessage, type ArgumentNoun } from './messages.ts';

export interface StrictOptions {
  /** Names accepted besides the schema's own (REST: the key parameters `api_key`, `secret`). */
  alsoAccepted?: readonly string[];
}

/**
 * The same fields as `schema`, refusing any other name with a message that lists the known ones.
 * Contract inputs are plain `z.object`s so this can rebuild them; rules across fields belong in the
 * service, which sees every face's input.
 */
export function strictArguments<Shape extends z.ZodRawShape>(
  schema: z.ZodObject<Shape, z.core.$ZodObjectConfig>,
  noun: ArgumentNoun,
  options: StrictOptions = {},
) {
  const known = Object.keys(schema.shape);
  const extra = options.alsoAccepted?.length ? ` (and ${options.alsoAccepted.join(' or ')} for an API key)` : '';
  return z.strictObject(schema.shape, {
    error: (issue) => {
      if (issue.code === 'unrecognized_keys') return unknownNamesMessage(issue.keys, known, noun, extra);
      if (issue.code === 'invalid_type') return `Give the ${noun}s as an object with the names ${known.join(', ')}.`;
      return undefined;
    },
  });
}
