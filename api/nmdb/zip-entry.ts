// FHFA publishes each NMDB table as a zip holding one CSV. This finds that entry through the zip's
// central directory (the local header of a streamed zip carries no sizes) and yields its text in
// chunks as it inflates, so the 37.7 MB CSV is never held whole; the entry's CRC-32 and size are
// checked at the end, so a truncated or corrupted download fails instead of loading part of a file.
import { Readable } from 'node:stream';
import { createInflateRaw, crc32 } from 'node:zlib';
import { SourceFormatError } from '../sync/errors.ts';

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
/** Sizes of this value mean a ZIP64 record: not used by FHFA's files, which stay far below 4 GiB. */
const ZIP64_MARKER = 0xffffffff;

export interface ZipEntry {
  name: string;
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  localHeaderOffset: number;
}

function endOfCentralDirectory(bytes: Buffer, file: string): number {
  // The record is 22 bytes plus a comment of at most 65,535 bytes, at the very end.
  for (let offset = bytes.length - 22; offset >= Math.max(0, bytes.length - 65_557); offset -= 1) {
    if (bytes.readUInt32LE(offset) === END_OF_CENTRAL_DIRECTORY) return offset;
  }
  throw new SourceFormatError(file, undefined, 'not a zip archive (no end-of-central-directory record); the download may be an error page or cut short');
}

/** Every entry the central directory lists. */
export function zipEntries(bytes: Buffer, file: string): ZipEntry[] {
  const end = endOfCentralDirectory(bytes, file);
  const count = bytes.readUInt16LE(end + 10);
  let offset = bytes.readUInt32LE(end + 16);
  const entries: ZipEntry[] = [];
  for (let index = 0; index < count; index += 1) {
    if (offset + 46 > bytes.length || bytes.readUInt32LE(offset) !== CENTRAL_ENTRY) {
      throw new SourceFormatError(file, undefined, `zip central directory entry ${index + 1} is malformed`);
    }
    const nameLength = bytes.readUInt16LE(offset + 28);
    const extraLength = bytes.readUInt16LE(offset + 30);
    const commentLength = bytes.readUInt16LE(offset + 32);
    entries.push({
      name: bytes.toString('utf8', offset + 46, offset + 46 + nameLength),
      method: bytes.readUInt16LE(offset + 10),
      crc: bytes.readUInt32LE(offset + 16),
      compressedSize: bytes.readUInt32LE(offset + 20),
      size: bytes.readUInt32LE(offset + 24),
      localHeaderOffset: bytes.readUInt32LE(offset + 42),
    });
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** The one CSV of an archive that must hold exactly one (folders and other files are ignored). */
export function onlyCsvEntry(bytes: Buffer, file: string): ZipEntry {
  const csvs = zipEntries(bytes, file).filter((entry) => entry.name.toLowerCase().endsWith('.csv') && !entry.name.startsWith('__MACOSX/'));
  if (csvs.length !== 1) {
    throw new SourceFormatError(file, undefined, `expected one CSV in the zip, found ${csvs.length === 0 ? 'none' : csvs.map((entry) => entry.name).join(', ')}`);
  }
  return csvs[0] as ZipEntry;
}

/** The entry's bytes as they inflate, verified against the central directory's CRC-32 and size at the end. */
export async function* entryChunks(bytes: Buffer, entry: ZipEntry, file: string): AsyncGenerator<Buffer> {
  if (entry.compressedSize === ZIP64_MARKER || entry.size === ZIP64_MARKER) {
    throw new SourceFormatError(file, undefined, `${entry.name} is a ZIP64 entry, which this reader does not handle`);
  }
  const local = entry.localHeaderOffset;
  if (local + 30 > bytes.length || bytes.readUInt32LE(local) !== LOCAL_HEADER) {
    throw new SourceFormatError(file, undefined, `the local header of ${entry.name} is missing`);
  }
  const start = local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28);
  if (start + entry.compressedSize > bytes.length) {
    throw new SourceFormatError(file, undefined, `${entry.name} is cut short: the zip holds ${bytes.length - start} of its ${entry.compressedSize} compressed bytes`);
  }
  const compressed = bytes.subarray(start, start + entry.compressedSize);
  let source: AsyncIterable<Buffer>;
  if (entry.method === 0) source = [compressed] as unknown as AsyncIterable<Buffer>;
  else if (entry.method === 8) source = Readable.from([compressed]).pipe(createInflateRaw());
  else throw new SourceFormatError(file, undefined, `${entry.name} uses zip compression method ${entry.method}; only stored and deflated entries are read`);

  let crc = 0;
  let size = 0;
  try {
    for await (const chunk of source) {
      crc = crc32(chunk, crc);
      size += chunk.length;
      yield chunk;
    }
  } catch (error) {
    throw new SourceFormatError(file, undefined, `${entry.name} does not inflate: ${(error as Error).message}`);
  }
  if (size !== entry.size || crc !== entry.crc) {
    throw new SourceFormatError(file, undefined, `${entry.name} is corrupt: ${size} bytes with CRC-32 ${crc.toString(16)}, the zip says ${entry.size} bytes with ${entry.crc.toString(16)}`);
  }
}

/** The entry's text line by line (LF or CRLF), with 1-based line numbers, as it inflates. */
export async function* entryLines(bytes: Buffer, entry: ZipEntry, file: string): AsyncGenerator<{ line: number; text: string }> {
  let carry = '';
  let line = 0;
  const decoder = new TextDecoder('utf-8');
  for await (const chunk of entryChunks(bytes, entry, file)) {
    const text = carry + decoder.decode(chunk, { stream: true });
    let from = 0;
    for (let newline = text.indexOf('\n'); newline !== -1; newline = text.indexOf('\n', from)) {
      line += 1;
      const end = newline > from && text.charCodeAt(newline - 1) === 13 ? newline - 1 : newline;
      yield { line, text: text.slice(from, end) };
      from = newline + 1;
    }
    carry = text.slice(from);
  }
  carry += decoder.decode();
  if (carry.length > 0) yield { line: line + 1, text: carry.endsWith('\r') ? carry.slice(0, -1) : carry };
}
