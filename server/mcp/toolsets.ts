// Which tools each toolset holds: every tool belongs to exactly one (server/mcp/toolsets.test.ts
// fails for a tool that has none, so a new route cannot slip into a listing unnoticed). A
// session lists and runs only the tools of the toolsets it opened with: those named by the
// endpoint's URL (`?toolsets=publishing,inbox`) or the `X-MCP-Toolsets` header, else those an
// assistant connection's member chose at consent, else the default. Scopes still apply on top.
// The names, the default and the parsing of a choice: server/shared/toolsets.ts.
import { TOOLSET_DESCRIPTIONS, TOOLSET_NAMES, type ToolsetName } from '@/server/shared/toolsets';

export * from '@/server/shared/toolsets';

export interface Toolset {
  description: string;
  tools: readonly string[];
}

/** The toolsets, in the order they are shown. Adding a route means adding its tool here. */
export const TOOLSETS: Record<ToolsetName, Toolset> = {
  publishing: {
    description: TOOLSET_DESCRIPTIONS.publishing,
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
    description: TOOLSET_DESCRIPTIONS.automation,
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
    description: TOOLSET_DESCRIPTIONS.analytics,
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
    description: TOOLSET_DESCRIPTIONS.inbox,
    tools: [
      'inbox_list',
      'inbox_get',
      'inbox_draft_reply',
      'inbox_discard_draft',
      'inbox_reply',
      'inbox_edit_reply',
      'inbox_delete_reply',
      'inbox_update',
      'inbox_hide',
      'inbox_delete',
      'inbox_like',
      'inbox_check',
      'inbox_response_times',
    ],
  },
  admin: {
    description: TOOLSET_DESCRIPTIONS.admin,
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
 * What `tools/list` of the default toolsets (DEFAULT_TOOLSETS) may weigh, in KiB, for a key
 * with every scope, whatever is added later: a tool that would push it over goes to another
 * toolset. server/mcp/toolsets.test.ts holds it; bench/mcp.ts prints it.
 */
export const DEFAULT_TOOLSETS_BUDGET_KB = 30;

let byTool: Map<string, ToolsetName> | undefined;

/** The toolset a tool belongs to; undefined only for a tool no toolset lists (a test fails then). */
export function toolsetOf(toolName: string): ToolsetName | undefined {
  if (!byTool) {
    byTool = new Map();
    for (const name of TOOLSET_NAMES) for (const tool of TOOLSETS[name].tools) byTool.set(tool, name);
  }
  return byTool.get(toolName);
}

/** Whether a tool is in these toolsets. */
export function inToolsets(toolName: string, toolsets: readonly ToolsetName[]): boolean {
  const set = toolsetOf(toolName);
  return set !== undefined && toolsets.includes(set);
}
