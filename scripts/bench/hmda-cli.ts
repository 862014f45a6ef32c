// Runs the HMDA benchmark alone: `npm run bench:hmda` (10 million synthetic rows of 2024),
// `npm run bench:hmda -- --quick` (1 million), or `npm run bench:hmda -- --scale seed` (every state
// of 2018–2024 at the production seed's ~121 million rows; `--scale 0.02` for a fraction of it,
// `--years 2023,2024` for some years). Prints one line per figure. Seed options: `--runs N` timed
// runs per query, `--all-years-runs N` for the all-years presets computed on request, `--out FILE`
// a JSON of the figures rewritten as the run goes, `--keep` to keep the warehouse, `--load-only`,
// `--warehouse DIR` to time the queries of a kept warehouse (with `--load-only --years`, to load
// more years into it).
import { runHmdaBench } from './hmda.ts';
import { runHmdaSeedBench, SEED_YEARS } from './hmda-seed.ts';

function option(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

const scaleOption = option('scale');
const scale = scaleOption === 'seed' ? 1 : Number(scaleOption);
if (scaleOption !== undefined && !(scale > 0 && scale <= 1)) throw new Error('--scale takes `seed` or a fraction in (0, 1], e.g. 0.02');
const years = option('years')?.split(',').map(Number) ?? SEED_YEARS;
const runs = option('runs') === undefined ? undefined : Number(option('runs'));
const allYearsRuns = option('all-years-runs') === undefined ? undefined : Number(option('all-years-runs'));
const seedOptions = {
  out: option('out'),
  keep: process.argv.includes('--keep'),
  loadOnly: process.argv.includes('--load-only'),
  warehouse: option('warehouse'),
};
const rows =
  scaleOption === undefined
    ? await runHmdaBench({ quick: process.argv.includes('--quick') })
    : await runHmdaSeedBench({ scale, years, runs, allYearsRuns, ...seedOptions, log: (line) => console.error(line) });
for (const row of rows) {
  const figure =
    row.requestsPerSecond !== undefined
      ? `${row.requestsPerSecond.toLocaleString('en-US')} rows/s`
      : row.peakRssMb !== undefined
        ? `${row.peakRssMb} MiB`
        : row.p50Ms !== undefined
          ? `p50 ${row.p50Ms} ms${row.p99Ms !== undefined ? `, p99 ${row.p99Ms} ms` : ''}${row.ratio !== undefined ? ` (${row.ratio}x floor)` : ''}`
          : (row.note ?? '');
  const verdict = row.met === undefined ? '' : row.met ? ' ✓' : ' ✗';
  console.log(`${row.name}: ${figure}${row.target ? `  [target ${row.target}]${verdict}` : ''}`);
}
console.log(`(${rows[0]?.note ?? ''})`);
