// GET /escrow for the counties whose collectors bill off the statute: the answer, its tax year and
// the collector's page travel together through the real app, on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EscrowAnswerSchema } from '../../api/escrow/contract.ts';
import { buildTestApp, listen, type TestApp } from '../support/app.ts';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.ts';
import { rawRequest } from '../support/http.ts';
import { hasSourceData, SOURCE_DIR } from '../support/source-data.ts';

const clock = () => new Date('2026-11-24T15:00:00Z');

describe.skipIf(!hasSourceData).each(databaseKinds)('county tax calendars on GET /escrow (%s)', (kind) => {
  let database: TestDatabase;
  let app: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  const escrow = async (query: string) => {
    const response = await rawRequest(`${server.url}/api/v1/escrow?${query}`);
    expect(response.status, query).toBe(200);
    return EscrowAnswerSchema.strict().parse(JSON.parse(response.body));
  };

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    app = await buildTestApp(database.db, { clock, env: { MDS_SOURCE_DIR: SOURCE_DIR } });
    server = await listen(app.app);
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    await app?.close();
    await database?.drop();
  });

  it('Cook County answers from the tax year 2024 bills, not the statute', async () => {
    const body = await escrow('state=IL&county=Cook%20County&closing_month=september');
    expect(body).toMatchObject({ stateCode: 'IL', isCountySpecific: true, closingMonthName: 'September', escrowMonths: 9 });
    expect(body.taxSchedule.disbursementMonths).toEqual(['March', 'December']);
    expect(body.taxSchedule.notes).toMatch(/tax year 2024/);
    expect(body.taxSchedule.notes).toMatch(/December 15, 2025/);
    expect(body.sources.some((source) => source.url?.startsWith('https://www.cbsnews.com/chicago/'))).toBe(true);
  });

  it('Franklin County answers February and July, by FIPS or by name', async () => {
    const byFips = await escrow('state=OH&county=39049&closing_month=9');
    const byName = await escrow('state=ohio&county=franklin&closing_month=9');
    expect(byName).toEqual(byFips);
    expect(byFips.taxSchedule.disbursementMonths).toEqual(['February', 'July']);
    expect(byFips.escrowMonths).toBe(5);
    expect(byFips.taxSchedule.notes).toContain('https://treasurer.franklincountyohio.gov/Property-Tax-Due-Date');
    expect(byFips.taxSchedule.notes).toMatch(/tax year 2025/);
  });

  it('Fulton and Gwinnett answer in the fall, not the Georgia default of December', async () => {
    const georgia = await escrow('state=GA&closing_month=6');
    const fulton = await escrow('state=GA&county=Fulton&closing_month=6');
    const gwinnett = await escrow('state=GA&county=13135&closing_month=6');
    expect(georgia.taxSchedule.disbursementMonths).toEqual(['December']);
    expect(fulton.taxSchedule.disbursementMonths).toEqual(['October']);
    expect(gwinnett.taxSchedule.disbursementMonths).toEqual(['November']);
    // June closing, first payment in August: October leaves 3 deposits (2 + 12 − 3 = 11), November 4 (10), December 5 (9).
    expect([fulton.escrowMonths, gwinnett.escrowMonths, georgia.escrowMonths]).toEqual([11, 10, 9]);
    expect(fulton.taxSchedule.notes).toMatch(/tax year 2019/);
    expect(gwinnett.taxSchedule.notes).toMatch(/tax year 2022/);
  });

  it('a county checked against its collector says so and links the page', async () => {
    const body = await escrow('state=CA&county=Los%20Angeles&closing_month=4');
    expect(body.isCountySpecific).toBe(false);
    expect(body.taxSchedule.disbursementMonths).toEqual(['April', 'December']);
    expect(body.taxSchedule.notes).toMatch(/Los Angeles County \(06037\) collects on the California schedule/);
    expect(body.sources.map((source) => source.url)).toContain('http://thecitizensvoice.net/?p=12149');
  });
});
