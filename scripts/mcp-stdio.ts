// `npm run mcp:stdio` (or `npx mortgage-data-service mcp`): the MCP server on stdin/stdout.
import { runStdioServer } from '../api/mcp/stdio.ts';

await runStdioServer();
