// The end of every command-line entry point: its `main` resolves to the exit code, and an
// unexpected error becomes one line on stderr and exit code 1 (no stack trace for users).
export function runCli(name: string, main: () => Promise<number>): void {
  main().then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`${name}: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
