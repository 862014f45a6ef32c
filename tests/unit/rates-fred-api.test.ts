// The FRED API client on recorded responses in FRED's documented JSON format, served locally.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../api/config.ts';
import { fetchFredSeries, parsePage } from '../../api/rates/sync/fred-api.ts';

const fixture = (name: string) => fs.readFileSync(path.join(PROJECT_ROOT, 'tests', 'fixtures', 'rates', name), 'utf8');

describe('FRED API client', () => {
  let server: http.Server;
  let baseUrl: string;
  const seen: URL[] = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      seen.push(url);
      const id = url.searchParams.get('series_id');
      const key = url.searchParams.get('api_key');
      let body = fixture('fred-api-error-bad-key.json');
      let status = 400;
      if (key === 'k' && id === 'MORTGAGE30US')
        [status, body] = [200, fixture(`fred-api-MORTGAGE30US-offset${url.searchParams.get('offset')}.json`)];
      if (key === 'k' && id === 'OBMMIC30YF') [status, body] = [200, fixture('fred-api-OBMMIC30YF-holiday.json')];
      res.writeHead(status, { 'content-type': 'application/json' }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/fred`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('follows offset paging until count observations are read', async () => {
    const result = await fetchFredSeries('MORTGAGE30US', { apiKey: 'k', baseUrl });
    expect(result.observations.map((observation) => observation.date)).toEqual([
      '2026-09-03',
      '2026-09-10',
      '2026-09-17',
      '2026-09-24',
      '2026-10-01',
      '2026-10-08',
    ]);
    expect(result.observations.at(-1)).toEqual({ date: '2026-10-08', value: 7.4 });
    expect(result.origin).not.toContain('api_key');
    expect(seen.filter((url) => url.searchParams.get('series_id') === 'MORTGAGE30US').map((url) => url.searchParams.get('offset'))).toEqual(
      ['0', '3'],
    );
  });

  it('skips "." missing values (holidays)', async () => {
    const result = await fetchFredSeries('OBMMIC30YF', { apiKey: 'k', baseUrl });
    expect(result.observations.map((observation) => observation.date)).toEqual(['2020-10-08', '2020-10-09', '2020-10-13', '2020-10-14']);
  });

  it("reports FRED's error message without the key", async () => {
    const failure = fetchFredSeries('MORTGAGE30US', { apiKey: 'secret-key', baseUrl });
    await expect(failure).rejects.toThrowError(/answered 400: Bad Request\. {2}The value for variable api_key is not registered/);
    await expect(failure).rejects.not.toThrowError(/secret-key/);
  });

  it('rejects a page that is not the documented shape', () => {
    expect(() => parsePage('{"observations": [{"date": "2026-10-08"}]}', 'origin', 0)).toThrowError(/origin:1: observation 1 lacks/);
    expect(() => parsePage('{"error_code": 500}', 'origin', 0)).toThrowError(/no observations array/);
  });
});
