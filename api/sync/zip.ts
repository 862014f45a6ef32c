// Publishers' ZIP archives (FHFA's NMDB tables, the FFIEC's transmittal sheet), read through fflate's
// central-directory reader (`unzipSync`), which takes ZIP64 archives as well as classic ones and
// stored or deflated entries. fflate's streaming `Unzip` is not used: it finds the end of an entry
// written with a data descriptor (FHFA's zips are) by searching the compressed bytes for a ZIP
// signature, which compressed data can hold by chance (fflate issues #208 and #243); the central
// directory gives every entry's exact size instead. An entry is therefore inflated whole (FHFA's
// 37.7 MB CSV at most), and its size is checked against the directory's (fflate does not check
// CRC-32: a corrupt deflate stream fails to inflate or comes out at another length).
import { unzipSync, type UnzipFileInfo } from 'fflate';
import { SourceFormatError } from './errors.ts';

export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflated. */
  method: number;
  compressedSize: number;
  size: number;
}

const LOCAL_HEADER_SIGNATURE = Buffer.from('PK\x03\x04', 'latin1');

/** Whether the bytes start like a ZIP archive (a publisher may serve the same file zipped or not). */
export const isZip = (bytes: Uint8Array): boolean =>
  Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(4, bytes.length)).equals(LOCAL_HEADER_SIGNATURE);

/** fflate's errors carry a code; 13 is "invalid zip data" (no end-of-central-directory record, or a malformed directory). */
function describe(error: unknown): string {
  const { code, message } = error as { code?: number; message?: string };
  if (code === 13) return 'not a zip archive (no readable central directory); the download may be an error page or cut short';
  return `the zip does not read: ${message ?? String(error)}`;
}

function unzip(bytes: Uint8Array, file: string, filter: (entry: UnzipFileInfo) => boolean): Record<string, Uint8Array> {
  try {
    return unzipSync(bytes, { filter });
  } catch (error) {
    throw new SourceFormatError(file, undefined, describe(error));
  }
}

/** Every entry the central directory lists, in its order; nothing is inflated. */
export function zipEntries(bytes: Uint8Array, file: string): ZipEntry[] {
  const entries: ZipEntry[] = [];
  unzip(bytes, file, ({ name, compression, size, originalSize }) => {
    entries.push({ name, method: compression, compressedSize: size, size: originalSize });
    return false;
  });
  return entries;
}

/** One entry's bytes, inflated and checked against the size the central directory gives. */
export function zipEntryBytes(bytes: Uint8Array, entry: ZipEntry, file: string): Buffer {
  if (entry.method !== 0 && entry.method !== 8) {
    throw new SourceFormatError(
      file,
      undefined,
      `${entry.name} uses zip compression method ${entry.method}; only stored and deflated entries are read`,
    );
  }
  let data: Uint8Array | undefined;
  try {
    data = unzipSync(bytes, { filter: ({ name }) => name === entry.name })[entry.name];
  } catch (error) {
    throw new SourceFormatError(file, undefined, `${entry.name} does not inflate: ${(error as Error).message}`);
  }
  if (!data) throw new SourceFormatError(file, undefined, `${entry.name} is not in the zip`);
  if (data.length !== entry.size) {
    throw new SourceFormatError(
      file,
      undefined,
      `${entry.name} is corrupt: it inflates to ${data.length} bytes, the zip says ${entry.size}`,
    );
  }
  return Buffer.from(data.buffer, data.byteOffset, data.length);
}

/** The first entry the central directory lists (archives that hold one file). */
export function firstZipEntry(bytes: Uint8Array, file: string): Buffer {
  const [first] = zipEntries(bytes, file);
  if (!first) throw new SourceFormatError(file, undefined, 'the zip is empty');
  return zipEntryBytes(bytes, first, file);
}
