// Why a dataset did not load, in one sentence a reader can be shown: about the publisher's file, by
// its public URL, never a local path, a stack or a command. The error's own message (file, line,
// what was wrong) stays in the log and in `sync_runs.message` for the operator.
import { SourceFormatError, SourceUnavailableError, ValidationError } from './errors.ts';
import type { SourceEntry, SourceFile } from './types.ts';

export interface FailureContext {
  /** Files the load read before it failed: which, not their bytes (those are the load's to drop). */
  files: readonly Pick<SourceFile, 'entry' | 'origin'>[];
  /** The file it was reading when reading failed. */
  unreadable?: SourceEntry;
}

/** The publisher URL of the file an error names (by its origin), else of the first file read. */
function publisherUrlOf(error: Error, { files }: FailureContext): string | undefined {
  const named = error instanceof SourceFormatError ? error.file : undefined;
  const file =
    files.find((candidate) => candidate.origin === named) ??
    files.find((candidate) => error.message.startsWith(`${candidate.origin}:`)) ??
    files[0];
  return file?.entry.publisherUrl;
}

const theFile = (url: string | undefined) => (url === undefined ? "The publisher's file" : `The publisher's file (${url})`);

export function failureReason(error: unknown, context: FailureContext): string {
  if (!(error instanceof Error)) return 'An internal error stopped the load.';
  if (error instanceof SourceUnavailableError) {
    return `${theFile(context.unreadable?.publisherUrl)} could not be retrieved.`;
  }
  if (error instanceof SourceFormatError) {
    return `${theFile(publisherUrlOf(error, context))} is not in the format this service reads; the publisher may have changed it.`;
  }
  if (error instanceof ValidationError) {
    return `${theFile(publisherUrlOf(error, context))} failed this service's consistency checks, so its figures were not used.`;
  }
  return 'An internal error stopped the load.';
}

export function dependencyReason(missing: readonly string[]): string {
  const names = missing.map((name) => `the ${name} dataset`);
  const list = names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
  return `It needs ${list}, which did not load.`;
}
