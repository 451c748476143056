// Slack's incoming webhooks (https://docs.slack.dev/messaging/sending-messages-using-incoming-webhooks):
// POST the webhook URL with a JSON message; Slack answers HTTP 200 "ok", or a status with a
// plain-text error code ("invalid_blocks", "no_service", "channel_is_archived", …).
import { PlatformError, TokenExpiredError } from '../publisher';
import type { ApiResponse } from '../http';

export const SLACK_DEFAULT_API_BASE_URL = 'https://slack.com/api';
export const SLACK_DEFAULT_WEBHOOK_BASE_URL = 'https://hooks.slack.com';
export const SLACK_DEFAULT_AUTHORIZE_URL = 'https://slack.com/oauth/v2/authorize';

/** The webhook no longer reaches a channel (removed, channel deleted or archived, token revoked): reconnect. */
const GONE = new Set(['no_service', 'channel_not_found', 'channel_is_archived', 'invalid_token', 'no_active_hooks', 'team_disabled']);

export function slackWebhookError(response: ApiResponse): PlatformError {
  const code = response.text.trim() || `Slack answered HTTP ${response.status}`;
  if (GONE.has(code) || response.status === 404 || response.status === 410) return new TokenExpiredError(code);
  return new PlatformError(code, { status: response.status });
}

/** Slack's mrkdwn control characters, escaped as its formatting guide asks (https://docs.slack.dev/messaging/formatting-message-text#escaping). */
export const escapeMrkdwn = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
