// The calendar's one schema on every face, over the calendar synced from the mirror: the REST body
// and the MCP structuredContent (through a real MCP client, which checks it against the listed
// outputSchema) are the same answer, which the contract takes exactly, and OpenAPI's 200 schema
// and the tool's outputSchema are the contract's. A table of natural argument variants gets the
// canonical answer on both faces; unknown names and impossible days are refused on both. The
// service answers from memory: requests read no events, and a new load is served at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../api/platform/db/database.ts';
import type { TestDatabase } from '../support/databases.ts';
import { resultText } from '../support/mcp-client.ts';
import { openFaces, outputJsonSchema, queryString, toolOutputJsonSchema, type Args, type Faces } from '../support/faces.ts';
import { publishedInputSchema } from '../../api/mcp/tool-schemas.ts';
import { getEconomicCalendarTool } from '../../api/mcp/tools/get-economic-calendar.ts';
import { hasSourceData } from '../support/source-data.ts';
import { syncedTestDatabase, syncInto } from '../support/synced.ts';
import { CalendarAnswerSchema, CalendarQuerySchema } from '../../api/calendar/contract.ts';
import { strictArguments } from '../../api/platform/contract/strict.ts';

// The service's clock on the day the calendar's expectations were written (a Tuesday).
const clock = () => new Date('2026-11-24T15:00:00Z');

/** Canonical arguments, then natural variants (as agents and people write them) that must get the same answer. */
const TABLE: { canonical: Args; variants: Args[] }[] = [
  {
    canonical: { from: '2026-01-01', to: '2026-12-31', category: ['fed'] },
    variants: [
      { from: '2026-01-01', to: '2026-12-31', category: 'fed' },
      { from: '2026-01-01', to: '2026-12-31', category: 'Fed' },
      { from: '2026-01-01', to: '2026-12-31', category: 'FED' },
      { from: '2026-01-01', to: '2026-12-31', category: 'FOMC' },
      { from: ' 2026-01-01 ', to: '2026-12-31', category: ' fed ' },
    ],
  },
  {
    canonical: { from: '2026-12-01', to: '2026-12-31', impact: ['high'] },
    variants: [
      { from: '2026-12-01', to: '2026-12-31', impact: 'high' },
      { from: '2026-12-01', to: '2026-12-31', impact: 'HIGH' },
      { from: '2026-12-01', to: '2026-12-31', impact: ['High'] },
    ],
  },
  {
    canonical: { from: '2026-01-01', to: '2026-06-30', impact: ['high', 'medium'], category: ['inflation', 'employment'], limit: 5 },
    variants: [
      { from: '2026-01-01', to: '2026-06-30', impact: 'medium,high', category: 'employment,inflation', limit: '5' },
      { from: '2026-01-01', to: '2026-06-30', impact: 'High, Medium', category: ['Jobs', 'INFLATION'], limit: ' 5 ' },
    ],
  },
  {
    canonical: { from: '2026-11-24', to: '2027-01-23' },
    variants: [{}, { from: '2026-11-24' }, { limit: '100' }],
  },
];

/** The database, counting the statements that read calendar_events. */
function counting(db: Database): { db: Database; eventReads: () => number } {
  let reads = 0;
  const wrapped: Database = Object.create(db) as Database;
  wrapped.query = async (sql, params) => {
    if (sql.includes('FROM calendar_events')) reads += 1;
    return db.query(sql, params);
  };
  return { db: wrapped, eventReads: () => reads };
}

describe.skipIf(!hasSourceData)('the calendar contract on every face', () => {
  let database: TestDatabase;
  let faces: Faces;
  let eventReads: () => number;

  const rest = (query: string) => faces.rest('/calendar', query);
  const mcp = (args: Args) => faces.mcp('get_economic_calendar', args);

  beforeAll(async () => {
    database = await syncedTestDatabase('pglite', ['economic_calendar']);
    const observed = counting(database.db);
    eventReads = observed.eventReads;
    faces = await openFaces(observed.db, { clock });
  }, 240_000);

  afterAll(async () => {
    await faces?.close();
    await database?.drop();
  });

  it('answers REST and MCP with one body the contract takes exactly', async () => {
    const args = { from: '2026-12-01', to: '2026-12-31', impact: ['high'] };
    const { status, body } = await rest(queryString(args));
    expect(status, JSON.stringify(body)).toBe(200);
    expect(CalendarAnswerSchema.parse(body)).toEqual(body);
    expect((body.events as { date: string; name: string }[]).map((event) => `${event.date} ${event.name}`)).toEqual([
      '2026-12-04 Employment Situation',
      '2026-12-09 FOMC rate decision',
      '2026-12-10 Consumer Price Index',
    ]);
    const result = await mcp(args);
    expect(result.isError, resultText(result)).toBeFalsy();
    expect(CalendarAnswerSchema.parse(result.structuredContent)).toEqual(result.structuredContent);
    expect(result.structuredContent).toEqual(body);
  });

  it("says where each publisher's schedule ends, as the mirror's files do (the BLS feed ends 2026-12-17)", async () => {
    const { body } = await rest(queryString({ from: '2026-12-01', to: '2027-03-31' }));
    const coverage = body.coverage as { publisher: string; through: string }[];
    expect(coverage).toContainEqual({ publisher: 'Bureau of Labor Statistics', through: '2026-12-17' });
    expect(coverage.map((entry) => entry.through)).toEqual([...coverage.map((entry) => entry.through)].sort());
    // Nothing of the BLS after its feed's last day: the range runs past its coverage.
    const bls = (body.events as { date: string; source_url: string }[]).filter((event) => event.source_url.includes('bls.gov'));
    expect(bls.every((event) => event.date <= '2026-12-17')).toBe(true);
  });

  it('documents that body in OpenAPI and in the tool listing from the same schema, and the input from the same query', () => {
    const expected = outputJsonSchema(CalendarAnswerSchema);
    const operation = faces.openapi.paths['/calendar']?.get;
    expect(operation?.responses['200']?.content?.['application/json']?.schema).toEqual(expected);
    expect(operation?.responses['200']?.content).toHaveProperty('text/calendar');
    expect(operation?.parameters.map((parameter) => parameter.name)).toEqual([...Object.keys(CalendarQuerySchema.shape), 'format']);
    const tool = faces.listed.find((candidate) => candidate.name === 'get_economic_calendar');
    expect(tool?.outputSchema).toEqual(toolOutputJsonSchema(getEconomicCalendarTool.outputSchema));
    expect(tool?.inputSchema).toEqual(publishedInputSchema(strictArguments(CalendarQuerySchema, 'argument')));
  });

  describe.each(TABLE)('$canonical', ({ canonical, variants }) => {
    it('gives every natural variant the canonical answer, on REST and MCP', async () => {
      const expected = await rest(queryString(canonical));
      expect(expected.status, JSON.stringify(expected.body)).toBe(200);
      expect((expected.body.events as unknown[]).length).toBeGreaterThan(0);
      expect((await mcp(canonical)).structuredContent).toEqual(expected.body);
      for (const variant of variants) {
        const viaRest = await rest(queryString(variant));
        expect(viaRest.status, `${JSON.stringify(variant)}: ${JSON.stringify(viaRest.body)}`).toBe(200);
        expect(viaRest.body, JSON.stringify(variant)).toEqual(expected.body);
        const viaMcp = await mcp(variant);
        expect(viaMcp.isError, `${JSON.stringify(variant)}: ${resultText(viaMcp)}`).toBeFalsy();
        expect(viaMcp.structuredContent, JSON.stringify(variant)).toEqual(expected.body);
      }
    });
  });

  it('takes a repeated REST parameter as a list', async () => {
    const repeated = await rest('from=2026-01-01&to=2026-06-30&impact=high&impact=medium&category=inflation&category=employment&limit=5');
    expect(repeated.body).toEqual((await rest(queryString(TABLE[2]?.canonical ?? {}))).body);
  });

  it('refuses an unknown name on both faces, listing the known ones', async () => {
    const viaRest = await rest('category=fed&country=US');
    expect(viaRest).toEqual({
      status: 400,
      body: {
        error:
          "Unknown parameter 'country'. Known parameters: from, to, impact, category, limit, as_of, format (and api_key or secret for an API key).",
        status: 400,
      },
    });
    const viaMcp = await mcp({ category: 'fed', country: 'US' });
    expect(viaMcp.isError).toBe(true);
    expect(resultText(viaMcp)).toContain("Unknown argument 'country'. Known arguments: from, to, impact, category, limit, as_of.");
  });

  it.each([
    [
      'from=2026-02-30',
      { from: '2026-02-30' },
      `Invalid value for 'from': "2026-02-30". Give a real calendar day written YYYY-MM-DD, e.g. "2026-03-18".`,
    ],
    [
      'from=2026-12-31&to=2026-12-01',
      { from: '2026-12-31', to: '2026-12-01' },
      "'from' must not be after 'to' (2026-12-31 is after 2026-12-01); give a 'from' on or before 'to'.",
    ],
    [
      'impact=urgent',
      { impact: 'urgent' },
      `Invalid value for 'impact': "urgent". Give one or more values (high, medium, low): one value, an array, or a comma-separated list (at most 3).`,
    ],
    ['limit=0', { limit: '0' }, "Invalid value for 'limit': 0. Give a whole number from 1 to 500."],
  ])('says the same about %s on both faces', async (query, args, message) => {
    expect(await rest(query)).toEqual({ status: 400, body: { error: message, status: 400 } });
    const viaMcp = await mcp(args);
    expect(viaMcp.isError).toBe(true);
    // The SDK frames a refused argument ("Input validation error: ... at from"); the sentence is the same.
    expect(resultText(viaMcp)).toContain(message);
  });

  it('reads the events once per load, not per request', async () => {
    const before = eventReads();
    for (const query of [
      '',
      'category=fed',
      'impact=high&limit=3',
      'from=2026-03-01&to=2026-03-31',
      'format=ics',
      'from=2025-01-01&to=2027-12-31&limit=500',
    ]) {
      expect((await fetch(`${faces.url}/api/v1/calendar?${query}`)).status, query).toBe(200);
    }
    await mcp({ category: 'housing' });
    expect(eventReads()).toBe(before);
  });

  it('serves a new load as soon as the sync publishes it', async () => {
    const query = 'from=2026-01-01&to=2026-12-31&category=fed';
    expect((await rest(query)).body.events).toHaveLength(8);
    // Another load: one FOMC decision changed in the database, then published as a sync does.
    await database.db.query("UPDATE calendar_events SET name = 'FOMC rate decision (moved)' WHERE series = 'fomc' AND date = '2026-12-09'");
    expect(((await rest(query)).body.events as { name: string }[]).map((event) => event.name)).not.toContain('FOMC rate decision (moved)');
    const reads = eventReads();
    await database.db.query("UPDATE datasets SET loaded_at = now() + interval '1 minute' WHERE name = 'economic_calendar'");
    faces.testApp.deps.services.datasets.invalidate();
    expect(((await rest(query)).body.events as { name: string }[]).map((event) => event.name)).toContain('FOMC rate decision (moved)');
    expect(eventReads()).toBe(reads + 1);
    // And a real sync puts the publisher's name back.
    const report = await syncInto(database.db, ['economic_calendar']);
    expect(report.results[0]?.status).toBe('ok');
    faces.testApp.deps.services.datasets.invalidate();
    expect(((await rest(query)).body.events as { name: string }[]).map((event) => event.name)).not.toContain('FOMC rate decision (moved)');
  });
});
