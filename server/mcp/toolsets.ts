// Toolsets of the tool endpoint: every tool belongs to exactly one (server/mcp/toolsets.test.ts
// fails for a tool that has none, so a new route cannot slip into a listing unnoticed). A
// session lists and runs only the tools of the toolsets it opened with: those named by the
// endpoint's URL (`?toolsets=publishing,inbox`) or the `X-MCP-Toolsets` header, else those an
// assistant connection's member chose at consent, else the default. Scopes still apply on top.
import { tools } from './tools';

export const TOOLSET_NAMES = ['publishing', 'automation', 'analytics', 'inbox', 'admin'] as const;
export type ToolsetName = (typeof TOOLSET_NAMES)[number];

export interface Toolset {
  /** One line for the consent page, the setup page and the docs. */
  description: string;
  tools: readonly string[];
}

/** The toolsets, in the order they are shown. Adding a route means adding its tool here. */
export const TOOLSETS: Record<ToolsetName, Toolset> = {
  publishing: {
    description: 'Draft, schedule and publish posts with their media; the accounts, the posting queue, the best times; staged actions',
    tools: [
      'posts_create',
      'posts_list',
      'posts_get',
      'posts_update',
      'posts_cancel',
      'posts_publish',
      'posts_retry',
      'posts_mark_published',
      'posts_resend',
      'posts_targets',
      'posts_import_preview',
      'posts_import',
      'posts_export_csv',
      'media_list',
      'media_upload_url',
      'media_complete',
      'media_delete',
      'connections_list',
      'queue_get',
      'queue_set_slots',
      'queue_shuffle',
      'queue_pause',
      'queue_resume',
      'best_times_get',
      'proposals_list',
      'proposals_get',
    ],
  },
  automation: {
    description: 'Posts that make themselves: feeds turned into posts, evergreen repeats, workflows (repurpose a post, weekly digest)',
    tools: [
      'feeds_list',
      'feeds_create',
      'feeds_get',
      'feeds_update',
      'feeds_delete',
      'feeds_check',
      'evergreen_list',
      'evergreen_set',
      'evergreen_get',
      'evergreen_stop',
      'workflows_list',
      'workflows_run',
      'workflows_runs',
      'workflows_get_run',
    ],
  },
  analytics: {
    description: 'Results: account and ad metrics, post metrics and top posts, tracked links’ clicks, website crawl, Instagram profiles',
    tools: [
      'analytics_sources',
      'analytics_ad_accounts',
      'analytics_metrics_summary',
      'analytics_metrics_daily',
      'post_metrics_get',
      'post_metrics_collect',
      'post_metrics_top',
      'post_metrics_rollup',
      'post_metrics_export_csv',
      'links_for_post',
      'links_clicks',
      'crawl_sites',
      'crawl_pages',
      'crawl_timeline',
      'crawl_changes',
      'crawl_change',
      'connections_instagram_profiles',
    ],
  },
  inbox: {
    description: 'Comments and messages: read, reply, hide, delete, like, assign and mark handled',
    tools: ['inbox_list', 'inbox_get', 'inbox_reply', 'inbox_update', 'inbox_hide', 'inbox_delete', 'inbox_like', 'inbox_check'],
  },
  admin: {
    description: 'Running the workspace: webhooks, API keys, client workspaces and their links and reports, settings',
    tools: [
      'webhooks_list',
      'webhooks_create',
      'webhooks_get',
      'webhooks_update',
      'webhooks_delete',
      'webhooks_rotate_secret',
      'webhooks_deliveries',
      'webhooks_redeliver',
      'webhooks_test',
      'webhooks_recover',
      'api_keys_list',
      'api_keys_create',
      'api_keys_revoke',
      'workspaces_list',
      'workspaces_create',
      'workspaces_get',
      'workspaces_detach',
      'workspaces_mint_key',
      'workspaces_connect_url',
      'workspaces_review_url',
      'workspaces_report_url',
      'workspaces_links',
      'workspaces_revoke_link',
      'settings_get',
      'settings_update',
    ],
  },
};

/**
 * What a session gets when nothing is chosen: publishing, what most assistants are connected
 * for. Its `tools/list` is held to DEFAULT_TOOLSETS_BUDGET_KB whatever is added later
 * (server/mcp/toolsets.test.ts); a tool that would push it over goes to another toolset.
 */
export const DEFAULT_TOOLSETS: readonly ToolsetName[] = ['publishing'];
/** What `tools/list` of the default toolsets may weigh, in KiB, for a key with every scope. */
export const DEFAULT_TOOLSETS_BUDGET_KB = 30;

/** The header naming toolsets (GitHub's MCP server's name for the same choice). */
export const TOOLSETS_HEADER = 'x-mcp-toolsets';
/** The endpoint URL's query parameter naming toolsets. */
export const TOOLSETS_PARAM = 'toolsets';

let byTool: Map<string, ToolsetName> | undefined;

/** The toolset a tool belongs to; undefined only for a tool no toolset lists (a test fails then). */
export function toolsetOf(toolName: string): ToolsetName | undefined {
  if (!byTool) {
    byTool = new Map();
    for (const name of TOOLSET_NAMES) for (const tool of TOOLSETS[name].tools) byTool.set(tool, name);
  }
  return byTool.get(toolName);
}

const isToolsetName = (s: string): s is ToolsetName => (TOOLSET_NAMES as readonly string[]).includes(s);

/** In the shown order, each once. */
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

/** The toolsets a session works with: its stored ones, the default when none were stored. */
export function effectiveToolsets(stored: readonly string[] | null | undefined): ToolsetName[] {
  const known = canonicalToolsets(stored ?? []);
  return known.length > 0 ? known : [...DEFAULT_TOOLSETS];
}

/** Whether a tool is in these toolsets. */
export function inToolsets(toolName: string, toolsets: readonly ToolsetName[]): boolean {
  const set = toolsetOf(toolName);
  return set !== undefined && toolsets.includes(set);
}

/** Every toolset with its tools that exist in this deployment (meta.enabled aside). */
export function toolsetTools(name: ToolsetName): string[] {
  const all = tools();
  return TOOLSETS[name].tools.filter((t) => all.has(t));
}
