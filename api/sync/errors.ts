// Errors that fail one dataset's sync with a message a person can act on: which file, which line.

/** The file is malformed: names the file and the 1-based line. */
export class SourceFormatError extends Error {
  readonly file: string;
  readonly line: number | undefined;

  constructor(file: string, line: number | undefined, problem: string) {
    super(`${file}${line === undefined ? '' : `:${line}`}: ${problem}`);
    this.name = 'SourceFormatError';
    this.file = file;
    this.line = line;
  }
}

/** The file parsed but its content fails a validation gate (row count, range, anchor value). */
export class ValidationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ValidationError';
  }
}

/** The source could not be read (missing mirror file, publisher unreachable). */
export class SourceUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SourceUnavailableError';
  }
}

/**
 * The dataset cannot be loaded in this setup and that is expected, not a fault (e.g. an online-only
 * source while MDS_SOURCE_DIR is set). The runner reports it as `skipped` with this message; the
 * sync still succeeds and the previous load stays served.
 */
export class DatasetSkippedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DatasetSkippedError';
  }
}
