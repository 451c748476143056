// The tool endpoint's toolsets by name (which tools each holds: server/mcp/toolsets.ts): what
// the endpoint's URL, its X-MCP-Toolsets header and an assistant connection's consent choose
// from. Names only, so the sign-in (server/oauth) and the endpoint read one list.

export const TOOLSET_NAMES = ['publishing', 'automation', 'analytics', 'inbox', 'admin'] as const;
export type ToolsetName = (typeof TOOLSET_NAMES)[number];

/** One line per toolset, for the consent page, the setup page and the docs. */
export const TOOLSET_DESCRIPTIONS: Record<ToolsetName, string> = {
  publishing: 'Draft, schedule and publish posts with their media; the accounts, the posting queue, the best times; staged actions',
  automation: 'Posts that make themselves: feeds turned into posts, evergreen repeats, workflows (repurpose a post, weekly digest)',
  analytics: 'Results: account and ad metrics, post metrics and top posts, tracked links’ clicks, website crawl, Instagram profiles',
  inbox: 'Comments and messages: read, draft and send replies, hide, delete, like, assign, mark handled, response times',
  admin: 'Running the workspace: webhooks, API keys, client workspaces and their links and reports, settings',
};

/**
 * What a session gets when nothing is chosen: publishing, what most assistants are connected
 * for. Its `tools/list` is held to DEFAULT_TOOLSETS_BUDGET_KB (server/mcp/toolsets.ts).
 */
export const DEFAULT_TOOLSETS: readonly ToolsetName[] = ['publishing'];

/** The header naming toolsets (GitHub's MCP server's name for the same choice). */
export const TOOLSETS_HEADER = 'x-mcp-toolsets';
/** The endpoint URL's query parameter naming toolsets. */
export const TOOLSETS_PARAM = 'toolsets';

export const isToolsetName = (s: string): s is ToolsetName => (TOOLSET_NAMES as readonly string[]).includes(s);

/** In the shown order, each once; what is not a toolset's name is left out. */
export function canonicalToolsets(names: Iterable<string>): ToolsetName[] {
  const chosen = new Set(names);
  return TOOLSET_NAMES.filter((n) => chosen.has(n));
}

/**
 * A comma-separated choice (`publishing,inbox`, `all`, `default,analytics`; whitespace and
 * case ignored) as toolset names, or why not. Empty (or only commas): null, nothing chosen.
 */
export function parseToolsets(value: string): { toolsets: ToolsetName[] | null } | { error: string } {
  const words = value
    .split(',')
    .map((w) => w.trim().toLowerCase())
    .filter(Boolean);
  if (words.length === 0) return { toolsets: null };
  const names = new Set<ToolsetName>();
  for (const word of words) {
    if (word === 'all') TOOLSET_NAMES.forEach((n) => names.add(n));
    else if (word === 'default') DEFAULT_TOOLSETS.forEach((n) => names.add(n));
    else if (isToolsetName(word)) names.add(word);
    else return { error: `Unknown toolset "${word.slice(0, 60)}": the toolsets are ${TOOLSET_NAMES.join(', ')} (or all, default)` };
  }
  return { toolsets: canonicalToolsets(names) };
}

/** The toolsets a session or key works with: its stored ones, the default when none were stored. */
export function effectiveToolsets(stored: readonly string[] | null | undefined): ToolsetName[] {
  const known = canonicalToolsets(stored ?? []);
  return known.length > 0 ? known : [...DEFAULT_TOOLSETS];
}
