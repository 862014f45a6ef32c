// The wording every face uses for bad input, so a REST 400, an MCP `isError` result and an /ask
// tool failure say the same thing: the parameter's name, what was given and what is valid.

/** `state`, `filters.year`: the dotted path of an issue, or '' at the top. */
export function parameterName(path: readonly PropertyKey[] | undefined): string {
  return (path ?? []).map(String).join('.');
}

/** What the caller gave, quoted and cut short (a hostile value must not flood the message). */
export function shownValue(value: unknown): string {
  if (value === undefined) return '';
  const json = JSON.stringify(value) ?? String(value);
  return json.length > 80 ? `${json.slice(0, 77)}...` : json;
}

/** "Invalid value for 'state': "ZZ". Give a 2-letter code or a state name." */
export function invalidValue(path: readonly PropertyKey[] | undefined, given: unknown, hint: string): string {
  const name = parameterName(path);
  const shown = shownValue(given);
  return `Invalid value for '${name}'${shown ? `: ${shown}` : ''}. ${hint}`;
}

/** "Missing 'term': give …" — said the same way for a REST parameter and an MCP argument. */
export function missingValue(path: readonly PropertyKey[] | undefined, hint: string): string {
  return `Missing '${parameterName(path)}'. ${hint}`;
}

/**
 * The message of a lenient parameter's failure: missing when nothing was given (a required
 * parameter), otherwise the value and what is valid.
 */
export function valueMessage(issue: { path?: readonly PropertyKey[] | undefined; input?: unknown }, hint: string): string {
  return issue.input === undefined ? missingValue(issue.path, hint) : invalidValue(issue.path, issue.input, hint);
}

export type ArgumentNoun = 'parameter' | 'argument';

/** Unknown names are refused, naming what is accepted, so a caller learns what was not answered. */
export function unknownNamesMessage(unknown: readonly string[], known: readonly string[], noun: ArgumentNoun, extra = ''): string {
  const quoted = unknown.map((key) => `'${key.slice(0, 40)}'`).join(', ');
  const accepted = known.length > 0 ? known.join(', ') : `no ${noun}s`;
  return `Unknown ${noun}${unknown.length === 1 ? '' : 's'} ${quoted}. Known ${noun}s: ${accepted}${extra}.`;
}

/** A REST parameter given twice where one value is expected. */
export function repeatedParameterMessage(name: string): string {
  return `Parameter '${name}' was given more than once; give it once.`;
}

/** "AK, AL, …": a list of valid values as the messages print it. */
export function listValues(values: readonly (string | number)[]): string {
  return values.map(String).join(', ');
}
