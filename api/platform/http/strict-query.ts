// Query strings checked against a contract's query object with nothing left over: an unknown
// parameter is a 400 that lists the known ones (the key parameters `api_key` and `secret` are
// always accepted), and a parameter given twice where one value is expected gets one message.
import { z } from 'zod';
import { strictArguments } from '../contract/strict.ts';
import { describeIssues } from '../contract/issues.ts';
import { repeatedParameterMessage } from '../contract/messages.ts';
import { BadRequestError } from '../errors.ts';
import { refuseNul } from '../validation.ts';

/** The key parameters (`api_key`, `secret`: docs/access.md) every route accepts whatever its own parameters are. */
export const KEY_QUERY_PARAMETERS: readonly string[] = ['api_key', 'secret'];

/** Names whose input schema accepts an array: there a repeated parameter is a list, not a mistake. */
function listParameters(schema: z.ZodObject): Set<string> {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, unknown> };
  const accepts = (property: unknown): boolean => {
    if (property === null || typeof property !== 'object') return false;
    const node = property as { type?: unknown; anyOf?: unknown[]; oneOf?: unknown[] };
    return (
      node.type === 'array' ||
      (Array.isArray(node.type) && node.type.includes('array')) ||
      [...(node.anyOf ?? []), ...(node.oneOf ?? [])].some(accepts)
    );
  };
  return new Set(
    Object.entries(json.properties ?? {})
      .filter(([, property]) => accepts(property))
      .map(([name]) => name),
  );
}

export function strictQueryParser<Shape extends z.ZodRawShape>(
  schema: z.ZodObject<Shape>,
): (query: unknown) => z.output<z.ZodObject<Shape>> {
  const strict = strictArguments(schema, 'parameter', { alsoAccepted: KEY_QUERY_PARAMETERS });
  const lists = listParameters(schema);
  const known = new Set(Object.keys(schema.shape));
  return (raw) => {
    const query: Record<string, unknown> = { ...(raw as Record<string, unknown>) };
    for (const name of KEY_QUERY_PARAMETERS) delete query[name];
    for (const [name, value] of Object.entries(query)) {
      if (Array.isArray(value) && known.has(name) && !lists.has(name)) throw new BadRequestError(repeatedParameterMessage(name));
    }
    const result = strict.safeParse(query);
    if (!result.success) throw new BadRequestError(describeIssues(result.error.issues, query, 'query'));
    // Checked on what the route will use: PostgreSQL text cannot hold a NUL.
    refuseNul(result.data, 'query');
    return result.data;
  };
}
