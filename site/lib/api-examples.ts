// The example of each API operation on /docs/api: the request built from the parameter examples the
// OpenAPI document publishes (the routes' own `example`), and the answer this server gives to it,
// shortened for reading (long lists keep their first items and say how many more there are).

interface Parameter {
  name: string;
  in: 'query' | 'path';
  required: boolean;
  example?: string;
}

export interface Operation {
  summary: string;
  description?: string;
  parameters: (Parameter & { description?: string; schema: { enum?: unknown[]; default?: unknown; type?: string } })[];
  requestBody?: { content: Record<string, { example?: unknown }> };
}

/** The path and query of the operation's example request, or undefined when it has none. */
export function exampleRequest(
  path: string,
  method: string,
  operation: Operation,
): { url: string; body?: unknown } | undefined {
  const parameters = operation.parameters;
  const body = operation.requestBody?.content['application/json']?.example;
  if (method === 'post' && body === undefined) return undefined;
  if (parameters.some((parameter) => parameter.required && parameter.example === undefined)) return undefined;
  // An operation whose parameters have no example at all (a file download) has none either.
  if (
    parameters.some((parameter) => parameter.in === 'path') &&
    parameters.every((parameter) => parameter.example === undefined)
  )
    return undefined;
  let url = path;
  const query = new URLSearchParams();
  for (const parameter of parameters) {
    if (parameter.example === undefined) continue;
    if (parameter.in === 'path') url = url.replace(`{${parameter.name}}`, parameter.example);
    else query.set(parameter.name, parameter.example);
  }
  const search = query.toString();
  return { url: `${url}${search ? `?${search}` : ''}`, ...(body === undefined ? {} : { body }) };
}

/** A curl command for the request against `apiBase` (the API root URL). */
export function curlCommand(apiBase: string, method: string, request: { url: string; body?: unknown }): string {
  const url = `'${apiBase}${request.url}'`;
  if (method === 'get') return `curl ${url}`;
  if (request.body === undefined) return `curl -X ${method.toUpperCase()} ${url}`;
  const body = JSON.stringify(request.body).replace(/'/g, "'\\''");
  return `curl -X ${method.toUpperCase()} ${url} \\\n  -H 'Content-Type: application/json' \\\n  -d '${body}'`;
}

const SHOWN_ITEMS = 2;
const LONGEST_TEXT = 240;

/** `value` with each list cut to its first items (then "… N more") and long texts cut. */
export function shorten(value: unknown): unknown {
  if (Array.isArray(value)) {
    const shown = value.slice(0, SHOWN_ITEMS).map(shorten);
    return value.length > SHOWN_ITEMS ? [...shown, `… ${value.length - SHOWN_ITEMS} more`] : shown;
  }
  if (typeof value === 'string') return value.length > LONGEST_TEXT ? `${value.slice(0, LONGEST_TEXT)}…` : value;
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, shorten(inner)]));
  return value;
}

/** The answer's body as shown: JSON pretty-printed and shortened, other text cut to its first lines. */
export function shownBody(contentType: string, body: string): string {
  if (contentType.includes('json')) {
    try {
      return JSON.stringify(shorten(JSON.parse(body)), null, 2);
    } catch {
      // not JSON after all: shown as text
    }
  }
  const lines = body.split('\n');
  return lines.length > 12 ? `${lines.slice(0, 12).join('\n')}\n… ${lines.length - 12} more lines` : body;
}
