// A staged action's arguments in plain words, for the member deciding on it: the accounts by
// name instead of ids, times in the workspace's time zone, yes/no instead of true/false,
// networks by name and their settings with the composer's words. The
// exact JSON stays one click away on the confirmation page; this is for reading at a glance.
import { platformName } from '@/server/platforms/catalogue';
import { isPlatform } from '@/server/shared/platforms';
import { settingsInWords } from '../_components/publishing/setting-fields';
import { formatIn } from './time';

export interface PlainArgument {
  label: string;
  value: string;
}

const LABELS: Record<string, string> = {
  content: 'Text',
  connectionIds: 'Accounts',
  scheduledAt: 'When',
  mediaIds: 'Media',
  requireApproval: 'Needs approval',
  variants: 'Per-platform text',
  platformSettings: 'Platform settings',
  expiresAt: 'Expires',
  expiresInDays: 'Link valid for',
  scopes: 'Permissions',
  events: 'Events',
  url: 'Address',
  name: 'Name',
  slug: 'Short name',
  active: 'Active',
  days: 'Days back',
  postId: 'Post',
  reason: 'Reason',
  rotate: 'Replace earlier links',
};

/** What `id` names depends on the tool: posts_publish's id is a post, workspaces_detach's a workspace. */
function idLabel(toolName: string): string {
  const family = toolName.split('_')[0] ?? '';
  return { posts: 'Post', workspaces: 'Workspace', webhooks: 'Webhook endpoint', media: 'Media file', workflows: 'Workflow' }[family] ?? 'Id';
}

function humanize(key: string): string {
  const words = key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

function plainValue(key: string, value: unknown, ctx: { accounts: Map<string, string>; timeZone: string }): string {
  if (value === null || value === undefined) return key === 'scheduledAt' ? 'Not scheduled (a draft)' : key === 'expiresAt' ? 'Never' : '—';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (key === 'connectionIds' && Array.isArray(value))
    return value.map((id) => ctx.accounts.get(String(id)) ?? `an account not in this workspace (${String(id)})`).join(', ');
  if (key === 'mediaIds' && Array.isArray(value)) return value.length === 1 ? '1 file' : `${value.length} files`;
  if (key === 'expiresInDays' && typeof value === 'number') return value === 1 ? '1 day' : `${value} days`;
  if (typeof value === 'string' && ISO.test(value)) {
    const d = new Date(value);
    if (!Number.isNaN(d.getTime())) return formatIn(d, ctx.timeZone);
  }
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  if (Array.isArray(value) && value.every((v) => typeof v === 'string' || typeof v === 'number')) return value.join(', ');
  if (key === 'variants' && typeof value === 'object') {
    return Object.entries(value as Record<string, { content?: unknown }>)
      .map(([platform, v]) => `${platformName(platform)}: “${typeof v?.content === 'string' ? v.content : JSON.stringify(v)}”`)
      .join('; ');
  }
  // The composer's own labels and words for each value, so a staged call reads like the form.
  if (key === 'platformSettings' && typeof value === 'object' && !Array.isArray(value)) {
    return Object.entries(value as Record<string, unknown>)
      .map(([platform, s]) =>
        isPlatform(platform) && s && typeof s === 'object'
          ? `${platformName(platform)}: ${settingsInWords(platform, s as Record<string, unknown>)}`
          : `${platform}: ${JSON.stringify(s)}`,
      )
      .join('; ');
  }
  return JSON.stringify(value);
}

export function plainArguments(toolName: string, args: Record<string, unknown>, ctx: { accounts: Map<string, string>; timeZone: string }): PlainArgument[] {
  return Object.entries(args).map(([key, value]) => ({
    label: key === 'id' ? idLabel(toolName) : (LABELS[key] ?? humanize(key)),
    value: plainValue(key, value, ctx),
  }));
}
