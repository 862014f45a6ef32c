// The hand-maintained tax schedules: schema, coverage, county overrides, and the county matcher.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createCountyResolver, normaliseCountyName, readCensusCounties } from '../../api/escrow/counties.ts';
import { loadSchedules, ScheduleFileSchema, SCHEDULES_FILE } from '../../api/escrow/schedules.ts';
import { createEscrowService, type EscrowService } from '../../api/escrow/service.ts';
import { EscrowQuerySchema, type EscrowAnswer } from '../../api/escrow/contract.ts';
import { parseOrThrow } from '../../api/platform/validation.ts';
import { findState, STATE_CODES, STATES } from '../../api/geo/states.ts';
import { HttpError } from '../../api/platform/errors.ts';
import { hasSourceData, SOURCE_DIR } from '../support/source-data.ts';

/** A request as every face reads it: parsed by the escrow contract, then answered. */
const ask = (service: EscrowService, input: Record<string, unknown>): EscrowAnswer =>
  service.answer(parseOrThrow(EscrowQuerySchema, input, 'query'));

const raw = JSON.parse(fs.readFileSync(SCHEDULES_FILE, 'utf8'));

describe('escrow tax schedules file', () => {
  it('passes the schema: 51 states, valid months, installments summing to the year', () => {
    const parsed = ScheduleFileSchema.parse(raw);
    expect(parsed.states).toHaveLength(51);
    expect(parsed.states.map((state) => state.code).sort()).toEqual(STATE_CODES);
    for (const state of parsed.states) expect(findState(state.name)?.code).toBe(state.code);
  });

  it('has at least 27 county overrides across several states, each with a note and a source', () => {
    const parsed = ScheduleFileSchema.parse(raw);
    expect(parsed.countyOverrides.length).toBeGreaterThanOrEqual(27);
    expect(new Set(parsed.countyOverrides.map((override) => override.state)).size).toBeGreaterThanOrEqual(8);
    for (const override of parsed.countyOverrides) {
      const state = STATES.find(({ code }) => code === override.state);
      expect(override.fips.startsWith(state?.fips ?? 'xx'), override.county).toBe(true);
      expect(override.source.citation.length).toBeGreaterThan(5);
    }
  });

  it('rejects a file whose installments do not sum to 12 or that misses a state', () => {
    const broken = structuredClone(raw);
    broken.states[0].installments[0].units = 11;
    expect(ScheduleFileSchema.safeParse(broken).success).toBe(false);
    const missing = structuredClone(raw);
    missing.states.pop();
    expect(ScheduleFileSchema.safeParse(missing).success).toBe(false);
  });

  it.skipIf(!hasSourceData)('names only counties that exist in the Census county list', () => {
    const counties = readCensusCounties(SOURCE_DIR);
    const parsed = ScheduleFileSchema.parse(raw);
    for (const override of parsed.countyOverrides) {
      const match = counties?.get(override.state)?.find((county) => county.fips === override.fips);
      expect(match, `${override.county} ${override.fips}`).toBeDefined();
      expect(normaliseCountyName(match?.name ?? '')).toBe(normaliseCountyName(override.county));
    }
  });
});

describe('county matching', () => {
  const schedules = loadSchedules();
  const withList = createCountyResolver(readCensusCounties(SOURCE_DIR));
  const withoutList = createCountyResolver(undefined);
  const ny = findState('NY')!;
  const va = findState('va')!;
  const nyOverrides = schedules.overridesByState.get('NY') ?? [];
  const vaOverrides = schedules.overridesByState.get('VA') ?? [];

  it('matches overrides by name, alias or FIPS, whatever the case and suffix', () => {
    for (const query of ['Kings County', 'kings', 'Brooklyn', '36047']) {
      const match = withoutList(ny, query, nyOverrides);
      expect(match.kind === 'override' && match.override.fips).toBe('36047');
    }
  });

  it('keeps Virginia independent cities apart from counties of the same name', () => {
    const city = withoutList(va, 'Richmond city', vaOverrides);
    expect(city.kind === 'override' && city.override.fips).toBe('51760');
    expect(withoutList(va, 'Richmond County', vaOverrides).kind).toBe('no-override');
  });

  it('refuses a FIPS code of another state', () => {
    expect(() => withoutList(ny, '17031', nyOverrides)).toThrow(/not a county of NY/);
  });

  it.skipIf(!hasSourceData)('refuses an unknown county name when the county list is available', () => {
    expect(() => withList(ny, 'Atlantis', nyOverrides)).toThrow(HttpError);
    expect(withList(ny, 'Albany County', nyOverrides).kind).toBe('no-override');
  });
});

describe('escrow service', () => {
  const service = createEscrowService({ sourceDir: undefined, clock: () => new Date('2026-03-15T12:00:00Z') });

  it('defaults the closing month to the clock month and resolves full state names', () => {
    const result = ask(service, { state: 'california' });
    expect(result.closingMonth).toBe(3);
    expect(result.stateCode).toBe('CA');
    expect(result.taxSchedule.disbursementMonths).toEqual(['April', 'December']);
    expect(result.allMonths.March).toBe(result.escrowMonths);
  });

  it('applies Cook County from the bills its Treasurer issued, and says which tax year', () => {
    const result = ask(service, { state: 'IL', county: 'Cook', closing_month: 1 });
    expect(result.isCountySpecific).toBe(true);
    expect(result.taxSchedule.disbursementMonths).toEqual(['March', 'December']);
    expect(result.taxSchedule.notes).toMatch(/Cook County/);
    expect(result.taxSchedule.notes).toMatch(/tax year 2024/);
  });

  it('lists all 51 codes for an unknown state', () => {
    expect(() => ask(service, { state: 'ZZ' })).toThrow(new RegExp(STATE_CODES.join(', ')));
  });
});
