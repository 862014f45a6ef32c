// Where the MCP endpoint is served. A module of its own so the stdio relay can name it without
// loading the HTTP face (and through it the whole MCP server) in a process that only forwards.
export const MCP_PATH = '/api/mcp';
