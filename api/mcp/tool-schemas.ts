// The JSON Schemas `tools/list` publishes for each tool, JSON Schema 2020-12, built here rather than
// by the SDK (which writes draft-07 and shows a lenient parameter as its canonical enum only). No
// `$schema` line: 2020-12 is MCP's default dialect, and what they use reads the same in draft-07
// (a client whose validator knows only draft-07 would refuse a 2020-12 `$schema` line outright).
//
// Input: what the server accepts. Every lenient parameter is published as the helper that reads it
// declares (api/platform/contract/lenient.ts, `acceptedInputOf`): "Texas", "wa", "FHA", "90%", "15"
// validate as they are answered, and what the server refuses fails too, but for a place name of the
// right shape the server does not know (api/platform/contract/places.ts says why). A subschema written more than once (the
// calendar-day pattern of `date` and `as_of`) is said once, in `$defs`, whenever that makes the schema shorter.
//
// Output: the shape of `structuredContent` a client can check and a model can plan with, kept small:
// each field of the result with its type; the full schema, every field
// described at every depth, is the OpenAPI document's (GET /api/v1/openapi.json).
//
// Both are portable: no `type` arrays (a nullable field is `anyOf` with `{"type": "null"}`), no
// schema without a constraint, no remote `$ref`.
import { z } from 'zod';
import { acceptedInputOf, type JsonSchema } from '../platform/contract/lenient.ts';

/** Keywords that annotate a schema rather than constrain it: they stay where a body moves to `$defs`. */
const ANNOTATIONS = new Set(['description', 'default', 'title', 'examples', 'deprecated', 'readOnly', 'writeOnly']);
/** How deep the published output schema describes fields (1: the result's own fields). */
const OUTPUT_DEPTH = 1;
/** zod's bounds of `z.int()` (safe integers): what every JSON number is anyway. */
const SAFE_INTEGER_BOUNDS = { minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER };

const isObject = (value: unknown): value is JsonSchema => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A `z.preprocess`: normalising whose input JSON Schema would otherwise be its output's. */
function isPreprocess(schema: z.core.$ZodType): boolean {
  const def = schema._zod.def as { type: string; in?: z.core.$ZodType };
  return def.type === 'pipe' && def.in?._zod.traits.has('$ZodTransform') === true;
}

/** The input a tool's arguments object accepts, as `tools/list` publishes it. */
export function publishedInputSchema(schema: z.ZodType): JsonSchema {
  const undeclared: string[] = [];
  const json = z.toJSONSchema(schema, {
    io: 'input',
    target: 'draft-2020-12',
    override: ({ zodSchema, jsonSchema, path }) => {
      const accepted = acceptedInputOf(zodSchema as unknown as z.ZodType);
      if (accepted) {
        for (const key of Object.keys(jsonSchema)) if (!ANNOTATIONS.has(key)) delete jsonSchema[key];
        Object.assign(jsonSchema, structuredClone(accepted.json));
      } else if (isPreprocess(zodSchema)) undeclared.push(path.filter((part) => part !== 'properties').join('.') || '(root)');
    },
  }) as JsonSchema;
  // A normalising step that declares nothing would publish its canonical form only: stricter than
  // the server, which is what this module exists to prevent. Declare it with `lenient()`.
  if (undeclared.length > 0) throw new Error(`Input schema: normalised without a declared input at ${undeclared.join(', ')}`);
  const { $schema: _dialect, ...published } = shareRepeated(portable(json));
  return published;
}

/** The shape of a tool's structuredContent, as `tools/list` publishes it. */
export function publishedOutputSchema(schema: z.ZodType): JsonSchema {
  const json = z.toJSONSchema(schema, { io: 'output', target: 'draft-2020-12', unrepresentable: 'any' }) as JsonSchema;
  const { $schema: _dialect, ...outlined } = shareRepeated(portable(outline(json, OUTPUT_DEPTH)));
  return outlined;
}

/**
 * A schema's structure to `depth` levels of fields: names and types; deeper objects and
 * arrays as just that. No descriptions: the OpenAPI document has them.
 */
function outline(node: JsonSchema, depth: number): JsonSchema {
  const out: JsonSchema = {};
  if (Array.isArray(node.anyOf)) out.anyOf = node.anyOf.map((branch) => outline(branch as JsonSchema, depth));
  if (Array.isArray(node.oneOf)) out.oneOf = node.oneOf.map((branch) => outline(branch as JsonSchema, depth));
  for (const key of ['type'] as const) if (node[key] !== undefined) out[key] = node[key];
  const types = Array.isArray(node.type) ? node.type : [node.type];
  if (types.includes('object') && depth > 0) {
    if (isObject(node.properties)) {
      out.properties = Object.fromEntries(
        Object.entries(node.properties).map(([name, field]) => [name, outline(field as JsonSchema, depth - 1)]),
      );
    }
    if (isObject(node.additionalProperties) && Object.keys(node.additionalProperties).length > 0) {
      out.additionalProperties = outline(node.additionalProperties, depth - 1);
    }
  }
  if (types.includes('array') && depth > 0 && isObject(node.items)) out.items = outline(node.items, depth - 1);
  // Nothing left that constrains (an unknown value): any JSON value, said so a portable way (`portable` makes it `anyOf`).
  if (out.type === undefined && out.anyOf === undefined && out.oneOf === undefined && out.enum === undefined && out.const === undefined) {
    out.type = ['string', 'number', 'boolean', 'object', 'array', 'null'];
  }
  return out;
}

/** Rewrites what some clients cannot read: `type` arrays become `anyOf`; safe-integer bounds go. */
function portable(node: JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'minimum' && value === SAFE_INTEGER_BOUNDS.minimum) continue;
    if (key === 'maximum' && value === SAFE_INTEGER_BOUNDS.maximum) continue;
    if (key === 'properties' || key === '$defs') out[key] = mapValues(value as Record<string, JsonSchema>, portable);
    else if (key === 'items' || key === 'additionalProperties' || key === 'not') out[key] = isObject(value) ? portable(value) : value;
    else if (key === 'anyOf' || key === 'oneOf' || key === 'allOf') out[key] = (value as JsonSchema[]).map(portable);
    else out[key] = value;
  }
  // One branch alone is that branch (zod writes a list's item of one lenient choice so): said once.
  const branches = (out.anyOf ?? out.oneOf) as JsonSchema[] | undefined;
  if (branches?.length === 1 && Object.keys(out).length === 1) return branches[0] as JsonSchema;
  if (Array.isArray(out.type)) {
    const branches = (out.type as string[]).map((type) => ({ type }));
    delete out.type;
    if (out.anyOf) out.allOf = [...((out.allOf as JsonSchema[] | undefined) ?? []), { anyOf: branches }];
    else out.anyOf = branches;
  }
  return out;
}

const mapValues = <T, U>(record: Record<string, T>, map: (value: T) => U): Record<string, U> =>
  Object.fromEntries(Object.entries(record).map(([key, value]) => [key, map(value)]));

/** The constraints of a schema (without its annotations), and their text. */
function body(node: JsonSchema): { constraints: JsonSchema; key: string } {
  const constraints = Object.fromEntries(Object.entries(node).filter(([key]) => !ANNOTATIONS.has(key)));
  return { constraints, key: JSON.stringify(constraints) };
}

interface Site {
  node: JsonSchema;
  name: string;
}

/** Every subschema below the root, with a name for it (its field, "<field>_item" or "<field>_<n>"). */
function subschemas(root: JsonSchema): Site[] {
  const sites: Site[] = [];
  const visit = (node: JsonSchema, name: string, isRoot: boolean) => {
    if (!isRoot) sites.push({ node, name });
    if (isObject(node.properties))
      for (const [field, child] of Object.entries(node.properties)) if (isObject(child)) visit(child, field, false);
    if (isObject(node.$defs)) for (const [field, child] of Object.entries(node.$defs)) if (isObject(child)) visit(child, field, true);
    if (isObject(node.items)) visit(node.items, `${name}_item`, false);
    if (isObject(node.additionalProperties)) visit(node.additionalProperties, `${name}_value`, false);
    for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
      if (Array.isArray(node[key]))
        (node[key] as JsonSchema[]).forEach((child, index) => isObject(child) && visit(child, `${name}_${index + 1}`, false));
    }
  };
  visit(root, 'root', true);
  return sites;
}

/** The shortest name of the places a body is written (the reference to it is then the shortest). */
const shortestName = (sites: Site[]): string => sites.map((site) => site.name).reduce((a, b) => (b.length < a.length ? b : a));

/** A name for a definition first seen at `site` that no definition has yet. */
function definitionName(site: string, defs: Record<string, JsonSchema>): string {
  const base = site.replace(/[^A-Za-z0-9_]/g, '_');
  let name = base;
  for (let suffix = 2; defs[name] !== undefined; suffix += 1) name = `${base}_${suffix}`;
  return name;
}

/**
 * Whether saying a body (`key`, its constraints' text) once in `$defs` under `name` and a `$ref` at
 * each of its `count` places makes the schema shorter: the places shrink from the body to the
 * reference, and the definition (`"name":` and the body) is written once.
 */
function sharingSaves(key: string, count: number, name: string): boolean {
  const reference = `"$ref":"#/$defs/${name}"`.length;
  const inner = (text: string) => text.length - 2; // Without the braces: a place keeps its own annotations around it.
  return count * (inner(key) - reference) > `"${name}":${key},`.length;
}

/**
 * Says each repeated subschema once: the largest body written twice or more moves to `$defs` when
 * that makes the schema shorter, and each place keeps its annotations and a `$ref`; again until
 * none is left.
 */
function shareRepeated(root: JsonSchema): JsonSchema {
  const schema = structuredClone(root);
  const defs: Record<string, JsonSchema> = isObject(schema.$defs) ? (schema.$defs as Record<string, JsonSchema>) : {};
  for (;;) {
    const groups = new Map<string, Site[]>();
    for (const site of subschemas({ ...schema, $defs: defs })) {
      const { key } = body(site.node);
      if (site.node.$ref !== undefined) continue;
      groups.set(key, [...(groups.get(key) ?? []), site]);
    }
    const repeated = [...groups.entries()]
      .map(([key, sites]) => ({ key, sites, name: definitionName(shortestName(sites), defs) }))
      .filter(({ key, sites, name }) => sites.length > 1 && sharingSaves(key, sites.length, name))
      .sort((a, b) => b.key.length - a.key.length)[0];
    if (!repeated) break;
    const { sites, name } = repeated;
    const { constraints } = body(sites[0]!.node);
    defs[name] = structuredClone(constraints);
    for (const { node } of sites) {
      for (const key of Object.keys(constraints)) delete node[key];
      node.$ref = `#/$defs/${name}`;
    }
  }
  if (Object.keys(defs).length > 0) schema.$defs = defs;
  return schema;
}
