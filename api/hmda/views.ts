// The two views every HMDA query reads: `lar` over the state-year Parquet files and `lenders` over
// the transmittal sheets (an empty typed view until one is loaded). Shared by the trusted
// connection of the presets and the sandbox processes of custom SQL.
import fs from 'node:fs';
import path from 'node:path';
import { literal } from './duck.ts';
import { LENDER_COLUMNS } from './schema.ts';
import { larGlob, lendersGlob } from './warehouse.ts';

/** SQL creating (or dropping) the views for what the folder holds now. */
export function viewStatements(root: string): string[] {
  const hasLar = fs.existsSync(path.join(root, 'lar'));
  const hasLenders = fs.existsSync(path.join(root, 'lenders'));
  const emptyLenders = `SELECT ${LENDER_COLUMNS.map((c) => `CAST(NULL AS ${c.type}) AS ${c.name}`).join(', ')} WHERE false`;
  return [
    hasLar
      ? `CREATE OR REPLACE VIEW lar AS SELECT * FROM read_parquet(${literal(larGlob(root))}, hive_partitioning = true, hive_types = {'year': INTEGER, 'state': VARCHAR})`
      : 'DROP VIEW IF EXISTS lar',
    hasLenders
      ? `CREATE OR REPLACE VIEW lenders AS SELECT * FROM read_parquet(${literal(lendersGlob(root))}, hive_partitioning = false)`
      : `CREATE OR REPLACE VIEW lenders AS ${emptyLenders}`,
  ];
}
