// `npm run mcp:stdio` (or `npx mortgage-data-service mcp`): the MCP server on stdin/stdout. A desktop
// client shows stderr to its user, so a failure to start is one sentence there, not a stack trace
// (LOG_LEVEL=debug adds the trace).
import { runStdioServer } from '../api/mcp/stdio.ts';

try {
  await runStdioServer();
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`mcp:stdio could not start: ${message}\n`);
  if (/^(debug|trace)$/.test(process.env.LOG_LEVEL ?? '') && error instanceof Error) process.stderr.write(`${error.stack}\n`);
  process.exit(1);
}
