// The FFIEC publishes its transmittal sheet files as single-entry ZIP archives; this reads the first
// entry (stored or deflated) using the central directory, without a dependency.
import { inflateRawSync } from 'node:zlib';

export const isZip = (bytes: Buffer) => bytes.length >= 4 && bytes.readUInt32LE(0) === 0x04034b50;

export function firstZipEntry(bytes: Buffer): Buffer {
  let end = -1;
  for (let offset = bytes.length - 22; offset >= Math.max(0, bytes.length - 65_557); offset -= 1) {
    if (bytes.readUInt32LE(offset) === 0x06054b50) {
      end = offset;
      break;
    }
  }
  if (end < 0) throw new Error('not a ZIP archive (no end of central directory)');
  const central = bytes.readUInt32LE(end + 16);
  if (bytes.readUInt32LE(central) !== 0x02014b50) throw new Error('ZIP central directory not found');
  const method = bytes.readUInt16LE(central + 10);
  const compressedSize = bytes.readUInt32LE(central + 20);
  const localHeader = bytes.readUInt32LE(central + 42);
  const nameLength = bytes.readUInt16LE(localHeader + 26);
  const extraLength = bytes.readUInt16LE(localHeader + 28);
  const start = localHeader + 30 + nameLength + extraLength;
  const data = bytes.subarray(start, start + compressedSize);
  if (method === 0) return Buffer.from(data);
  if (method === 8) return inflateRawSync(data);
  throw new Error(`ZIP compression method ${method} is not supported`);
}
