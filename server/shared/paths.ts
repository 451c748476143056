// Where Herald's public surfaces live, relative to its base URL (HERALD_BASE_URL).

/** The REST API v1. */
export const PUBLIC_API_PREFIX = '/public/v1';
/** The tool endpoint (JSON-RPC over Streamable HTTP). */
export const MCP_PATH = `${PUBLIC_API_PREFIX}/mcp`;
