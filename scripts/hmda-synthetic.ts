// Writes a SYNTHETIC HMDA LAR CSV (FFIEC public format) calibrated to the official state aggregates,
// for benchmarks only. Usage:
//   node scripts/hmda-synthetic.ts --year 2024 --rows 1000000 --out /tmp/synthetic-2024.csv [--states CO,TX] [--seed 1]
//   node scripts/hmda-synthetic.ts --year 2022 --scale 1 --states WY --out wy.csv
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { PROJECT_ROOT } from '../api/config.ts';
import { loadCalibration, recordCount, statesWithRecords } from '../api/hmda/calibration.ts';
import { writeSyntheticLar } from '../api/hmda/synthetic.ts';

const { values } = parseArgs({
  options: {
    year: { type: 'string', default: '2024' },
    states: { type: 'string' },
    rows: { type: 'string' },
    scale: { type: 'string' },
    seed: { type: 'string', default: '1' },
    out: { type: 'string' },
  },
});

if (!values.out) {
  console.error('Give --out <file.csv>. The file is SYNTHETIC (every LEI starts with SYNTHETIC): never load it into the real warehouse.');
  process.exit(2);
}
const sourceDir = path.resolve(process.env.MDS_SOURCE_DIR ?? path.join(PROJECT_ROOT, '..', 'shared', 'data'));
const year = Number(values.year);
const calibration = loadCalibration(sourceDir, year);
const states = values.states ? values.states.split(',').map((s) => s.trim().toUpperCase()) : statesWithRecords(calibration.states);
const real = recordCount(calibration.states, states);
const scale = values.scale ? Number(values.scale) : values.rows ? Number(values.rows) / real : 0.01;
const out = fs.createWriteStream(values.out);
const started = performance.now();
const counts = await writeSyntheticLar(out, {
  year,
  states,
  aggregates: calibration.states,
  counties: calibration.counties,
  scale,
  seed: Number(values.seed),
});
await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
const rows = Object.values(counts).reduce((a, b) => a + b, 0);
console.log(
  `SYNTHETIC HMDA LAR: ${rows.toLocaleString('en-US')} rows for ${states.length} state(s), ${year}, scale ${scale.toFixed(4)} of the official aggregates, in ${((performance.now() - started) / 1000).toFixed(1)} s → ${values.out}`,
);
