// Which bill records sync reads before the selection rule (./selection.ts) picks the tracked ones:
// every BILLSTATUS file the mirror holds for the 115th Congress onward, or, with CONGRESS_API_KEY,
// the bills the congress.gov API lists as referred to the housing committees this Congress and the
// laws enacted since the 115th.
import fs from 'node:fs/promises';
import path from 'node:path';
import { SourceUnavailableError } from '../sync/errors.ts';
import { isBillType, makeBillRef, type BillRef } from './bill-id.ts';
import { listFromApi, type CongressApiOptions } from './congress-api.ts';
import { congressOn } from './congress-term.ts';
import { list, node, str, type Node } from './normalize.ts';
import { candidateCongresses, HOUSING_COMMITTEES } from './selection.ts';

const MIRROR_FILE = /^BILLSTATUS-(\d{1,3})([a-z]+)(\d{1,5})\.xml$/i;

/** Every BILLSTATUS file below `<sourceDir>/congress/billstatus/<congress>/` for the Congresses that count. */
export async function candidatesFromMirror(sourceDir: string, now: Date): Promise<BillRef[]> {
  const refs: BillRef[] = [];
  for (const congress of candidateCongresses(now)) {
    const dir = path.join(sourceDir, 'congress', 'billstatus', String(congress));
    let names: string[];
    try {
      names = await fs.readdir(dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue; // a Congress the mirror does not hold
      throw error;
    }
    for (const name of names.sort()) {
      const match = MIRROR_FILE.exec(name);
      const type = match?.[2]?.toLowerCase();
      if (!match || type === undefined || !isBillType(type) || Number(match[1]) !== congress) continue;
      refs.push(makeBillRef(congress, type, Number(match[3])));
    }
  }
  if (refs.length === 0) {
    throw new SourceUnavailableError(
      `${path.join(sourceDir, 'congress', 'billstatus')}: no BILLSTATUS files for the ${candidateCongresses(now).join('th–')}th Congresses; ` +
        "put the publisher's files there as <congress>/BILLSTATUS-<congress><type><number>.xml, or set CONGRESS_API_KEY.",
    );
  }
  return refs;
}

/** The API's committee paths, e.g. `/committee/house/hsba00/bills`. */
function committeeBillsPath(systemCode: string): string {
  const chamber = systemCode.startsWith('h') ? 'house' : 'senate';
  return `/committee/${chamber}/${systemCode}/bills`;
}

function refOf(item: Node, numberKey: 'number' | 'billNumber'): BillRef | undefined {
  const type = str(item.type)?.toLowerCase();
  const congress = Number(str(item.congress));
  const number = Number(str(item[numberKey]) ?? str(item.number));
  if (type === undefined || !isBillType(type) || !Number.isInteger(congress) || !Number.isInteger(number) || number < 1) return undefined;
  return makeBillRef(congress, type, number);
}

/**
 * From the congress.gov API: bills referred to House Financial Services or Senate Banking in the
 * sitting Congress, and every law of the 115th Congress onward. A housing bill the API lists under
 * neither (policy area only, another committee) is not seen this way; the mirror path reads them all.
 */
export async function candidatesFromApi(options: CongressApiOptions, now: Date): Promise<{ refs: BillRef[]; checksums: string[] }> {
  const sitting = congressOn(now);
  const byId = new Map<string, BillRef>();
  const checksums: string[] = [];
  for (const systemCode of Object.keys(HOUSING_COMMITTEES)) {
    const { items, checksum } = await listFromApi(
      committeeBillsPath(systemCode),
      (page) => list(node(page['committee-bills']).bills),
      options,
    );
    checksums.push(checksum);
    for (const item of items) {
      const ref = refOf(item, 'billNumber');
      if (ref && ref.congress === sitting) byId.set(ref.billId, ref);
    }
  }
  for (const congress of candidateCongresses(now)) {
    const { items, checksum } = await listFromApi(`/law/${congress}`, (page) => list(page.bills), options);
    checksums.push(checksum);
    for (const item of items) {
      const ref = refOf(item, 'number');
      if (ref) byId.set(ref.billId, ref);
    }
  }
  return { refs: [...byId.values()].sort((a, b) => a.billId.localeCompare(b.billId)), checksums };
}
