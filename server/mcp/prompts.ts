// Prompts for the common jobs and read-only resources for context. Small on purpose: the
// tools do the work; these only point an assistant at the right ones in the right order.
import type { GetPromptResult, Prompt, Resource, ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import { ERROR_CATALOGUE, type ErrorCode } from '@/server/errors/catalogue';
import { NEXT_STEP } from './tool-results';

export const PROMPTS: Prompt[] = [
  {
    name: 'draft_week',
    title: 'Draft a week of posts',
    description: 'Draft seven days of posts for chosen accounts, as drafts a member can review and schedule.',
    arguments: [
      { name: 'theme', description: 'What the week is about (campaign, product, tone).', required: true },
      { name: 'accounts', description: 'Which accounts: names or connection ids, comma-separated; empty for all active ones.', required: false },
      { name: 'startDate', description: 'First day, YYYY-MM-DD (default: tomorrow).', required: false },
    ],
  },
  {
    name: 'why_did_this_post_fail',
    title: 'Why did this post fail?',
    description: 'Explain each failed target of a post from its delivery log and propose the fix.',
    arguments: [{ name: 'postId', description: 'The post id.', required: true }],
  },
];

export function getPrompt(name: string, args: Record<string, string>): GetPromptResult | undefined {
  if (name === 'draft_week') {
    const text = [
      `Draft a week of social posts about: ${args.theme ?? '(ask me for a theme)'}.`,
      `Accounts: ${args.accounts?.trim() || 'every active connection'}. First day: ${args.startDate?.trim() || 'tomorrow'}.`,
      'Steps: 1) call connections_list to find the accounts, their platforms and health (skip expired ones and tell me);',
      '2) write one post per day; where platforms differ, add per-platform variants that fit each platform’s limits (a CONTENT_TOO_LONG error names the platform and its limit — shorten and retry);',
      '3) create each with posts_create WITHOUT scheduledAt, so it is saved as a draft at once, and list the times you suggest;',
      '4) only if I ask, schedule them (posts_update with scheduledAt): scheduling waits for a member’s confirmation, so report the actionIds.',
    ].join('\n');
    return { description: 'Draft a week of posts', messages: [{ role: 'user', content: { type: 'text', text } }] };
  }
  if (name === 'why_did_this_post_fail') {
    const text = [
      `Find out why post ${args.postId ?? '(ask me for the post id)'} failed.`,
      'Call posts_get, then posts_targets for the per-account delivery log. For each failed target quote the platform’s error verbatim,',
      'explain it in plain words (expired or revoked connection → reconnect in Herald; text or media over the platform’s limit → shorten or change media; a platform outage → publish again later),',
      'and propose one concrete fix per target. Do not publish again without asking me: publishing waits for a member’s confirmation.',
    ].join('\n');
    return { description: 'Why did this post fail?', messages: [{ role: 'user', content: { type: 'text', text } }] };
  }
  return undefined;
}

export const RESOURCES: Resource[] = [
  {
    uri: 'herald://workspace/connections',
    name: 'connections',
    title: 'Connected accounts',
    description: 'The workspace’s social accounts with platform and status (same as connections_list; needs connections:read).',
    mimeType: 'application/json',
  },
  {
    uri: 'herald://errors',
    name: 'errors',
    title: 'Error codes',
    description:
      'Every error code Herald answers: HTTP status, meaning and what to do next. A tool’s error is a result with isError whose text is { error: { code, message, field?, retryAfter?, hint } }.',
    mimeType: 'application/json',
  },
];

/** A tool's output schema (the REST route's success body), read when an assistant needs it rather than listed with every tool. */
export const OUTPUT_SCHEMA_TEMPLATE: ResourceTemplate = {
  uriTemplate: 'herald://tools/{name}/output-schema',
  name: 'output-schema',
  title: 'A tool’s output schema',
  description: 'JSON Schema of what the tool answers in structuredContent (the REST route’s success body; a staged call answers { staged } instead).',
  mimeType: 'application/schema+json',
};
export const OUTPUT_SCHEMA_URI = /^herald:\/\/tools\/([a-z0-9_]+)\/output-schema$/;

export function errorCatalogueJson(): string {
  return JSON.stringify(
    Object.entries(ERROR_CATALOGUE).map(([code, e]) => ({ code, status: e.status, description: e.description, next: NEXT_STEP[code as ErrorCode] ?? null })),
    null,
    2,
  );
}
