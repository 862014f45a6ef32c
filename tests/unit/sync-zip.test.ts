// The ZIP reader over fflate: classic and ZIP64 archives, stored and deflated entries, and the
// readable errors a download that is not a zip, cut short or inconsistent gets.
import { crc32, deflateRawSync } from 'node:zlib';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { firstZipEntry, isZip, zipEntries, zipEntryBytes } from '../../api/sync/zip.ts';

const MAX32 = 0xffffffff;

/**
 * A one-entry ZIP64 archive written the way APPNOTE 4.3.9 and 4.5.3 say: the 32-bit sizes and offset
 * are 0xFFFFFFFF, the real ones sit in the ZIP64 extra field, and a ZIP64 end-of-central-directory
 * record with its locator precedes the classic end record.
 */
function zip64Of(name: string, text: string): Buffer {
  const data = Buffer.from(text, 'utf8');
  const compressed = deflateRawSync(data);
  const fileName = Buffer.from(name, 'utf8');
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(45, 4);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(crc32(data), 14);
  local.writeUInt32LE(MAX32, 18);
  local.writeUInt32LE(MAX32, 22);
  local.writeUInt16LE(fileName.length, 26);
  local.writeUInt16LE(20, 28);
  const localExtra = Buffer.alloc(20);
  localExtra.writeUInt16LE(1, 0);
  localExtra.writeUInt16LE(16, 2);
  localExtra.writeBigUInt64LE(BigInt(data.length), 4);
  localExtra.writeBigUInt64LE(BigInt(compressed.length), 12);

  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(45, 4);
  central.writeUInt16LE(45, 6);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(crc32(data), 16);
  central.writeUInt32LE(MAX32, 20);
  central.writeUInt32LE(MAX32, 24);
  central.writeUInt16LE(fileName.length, 28);
  central.writeUInt16LE(28, 30);
  central.writeUInt32LE(MAX32, 42);
  const centralExtra = Buffer.alloc(28);
  centralExtra.writeUInt16LE(1, 0);
  centralExtra.writeUInt16LE(24, 2);
  centralExtra.writeBigUInt64LE(BigInt(data.length), 4);
  centralExtra.writeBigUInt64LE(BigInt(compressed.length), 12);
  centralExtra.writeBigUInt64LE(0n, 20);

  const centralOffset = local.length + fileName.length + localExtra.length + compressed.length;
  const centralSize = central.length + fileName.length + centralExtra.length;
  const end64 = Buffer.alloc(56);
  end64.writeUInt32LE(0x06064b50, 0);
  end64.writeBigUInt64LE(44n, 4);
  end64.writeUInt16LE(45, 12);
  end64.writeUInt16LE(45, 14);
  end64.writeBigUInt64LE(1n, 24);
  end64.writeBigUInt64LE(1n, 32);
  end64.writeBigUInt64LE(BigInt(centralSize), 40);
  end64.writeBigUInt64LE(BigInt(centralOffset), 48);
  const locator = Buffer.alloc(20);
  locator.writeUInt32LE(0x07064b50, 0);
  locator.writeBigUInt64LE(BigInt(centralOffset + centralSize), 8);
  locator.writeUInt32LE(1, 16);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(0xffff, 8);
  end.writeUInt16LE(0xffff, 10);
  end.writeUInt32LE(MAX32, 12);
  end.writeUInt32LE(MAX32, 16);
  return Buffer.concat([local, fileName, localExtra, compressed, central, fileName, centralExtra, end64, locator, end]);
}

const CSV = 'state,rate\nCA,6.5\nWY,6.9\n'.repeat(200);

describe('zip reader', () => {
  it('reads a ZIP64 archive through its ZIP64 records', () => {
    const zip = zip64Of('nmdb.csv', CSV);
    expect(isZip(zip)).toBe(true);
    const [entry, ...rest] = zipEntries(zip, 'nmdb.zip');
    expect(rest).toEqual([]);
    expect(entry).toMatchObject({ name: 'nmdb.csv', method: 8, size: Buffer.byteLength(CSV) });
    expect(firstZipEntry(zip, 'nmdb.zip').toString('utf8')).toBe(CSV);
  });

  it('lists stored and deflated entries in directory order and inflates the one asked for', () => {
    const zip = Buffer.from(
      zipSync({
        'readme.txt': [new TextEncoder().encode('stored'), { level: 0 }],
        'data/rates.csv': [new TextEncoder().encode(CSV), { level: 6 }],
      }),
    );
    const entries = zipEntries(zip, 'two.zip');
    expect(entries.map((entry) => [entry.name, entry.method])).toEqual([
      ['readme.txt', 0],
      ['data/rates.csv', 8],
    ]);
    expect(firstZipEntry(zip, 'two.zip').toString('utf8')).toBe('stored');
    expect(zipEntryBytes(zip, entries[1]!, 'two.zip').toString('utf8')).toBe(CSV);
  });

  it('names the file when the bytes are not a zip or are cut short', () => {
    const html = Buffer.from('<!doctype html><title>Service unavailable</title>');
    expect(isZip(html)).toBe(false);
    expect(() => zipEntries(html, 'error-page.zip')).toThrow(/error-page\.zip: not a zip archive .*cut short/);
    const zip = zip64Of('nmdb.csv', CSV);
    expect(() => firstZipEntry(zip.subarray(0, zip.length - 40), 'cut.zip')).toThrow(/cut\.zip: not a zip archive/);
  });

  it('fails an entry whose inflated size is not the one its directory gives', () => {
    const zip = Buffer.from(zipSync({ 'a.csv': [new TextEncoder().encode('a,b\n1,2\n'), { level: 0 }] }));
    const [entry] = zipEntries(zip, 'a.zip');
    expect(() => zipEntryBytes(zip, { ...entry!, size: entry!.size + 1 }, 'a.zip')).toThrow(
      /a\.zip: a\.csv is corrupt: it inflates to 8 bytes, the zip says 9/,
    );
    expect(() => zipEntryBytes(zip, { ...entry!, method: 12 }, 'a.zip')).toThrow(/compression method 12/);
  });
});
