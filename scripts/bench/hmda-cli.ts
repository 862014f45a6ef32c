// Runs the HMDA benchmark alone: `npm run bench:hmda` (10 million synthetic rows) or
// `npm run bench:hmda -- --quick` (1 million). Prints one line per figure.
import { runHmdaBench } from './hmda.ts';

const quick = process.argv.includes('--quick');
const rows = await runHmdaBench({ quick });
for (const row of rows) {
  const figure =
    row.requestsPerSecond !== undefined
      ? `${row.requestsPerSecond.toLocaleString('en-US')} rows/s`
      : row.peakRssMb !== undefined
        ? `${row.peakRssMb} MiB`
        : `p50 ${row.p50Ms} ms${row.ratio !== undefined ? ` (${row.ratio}x floor)` : ''}`;
  const verdict = row.met === undefined ? '' : row.met ? ' ✓' : ' ✗';
  console.log(`${row.name}: ${figure}${row.target ? `  [target ${row.target}]${verdict}` : ''}`);
}
console.log(`(${rows[0]?.note ?? ''})`);
