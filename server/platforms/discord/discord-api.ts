// Discord's webhook execution (https://discord.com/developers/docs/resources/webhook#execute-webhook):
// POST <api>/webhooks/<id>/<token>?wait=true answers the created message. Errors are
// { "message", "code", "errors"? } (https://discord.com/developers/docs/reference#error-messages);
// a 429 says how long to wait in its body's retry_after, in seconds
// (https://discord.com/developers/docs/topics/rate-limits#exceeding-a-rate-limit).
import { PlatformError, TokenExpiredError } from '../publisher';
import { jsonAt, jsonString, type ApiResponse } from '../http';

export const DISCORD_DEFAULT_BASE_URL = 'https://discord.com/api/v10';
export const DISCORD_DEFAULT_AUTHORIZE_URL = 'https://discord.com/oauth2/authorize';

/** Unknown Webhook (10015), Invalid Webhook Token (50027): the webhook was deleted or its token revoked. */
const GONE_CODES = new Set(['10015', '50027']);

export const discordRetryAfter = (response: ApiResponse): number | null => {
  const seconds = Number(jsonAt(response.json, 'retry_after'));
  return Number.isFinite(seconds) && seconds >= 0 ? Math.ceil(seconds * 1000) : null;
};

/** The first field error of an "Invalid Form Body", as "content: Must be 2000 or fewer in length.". */
function firstFieldError(errors: unknown, path: string[] = []): string | null {
  if (errors === null || typeof errors !== 'object') return null;
  const own = jsonString(errors, '_errors', 0, 'message');
  if (own) return `${path.join('.')}: ${own}`;
  for (const [key, value] of Object.entries(errors)) {
    const found = firstFieldError(value, [...path, key]);
    if (found) return found;
  }
  return null;
}

export function discordError(response: ApiResponse): PlatformError {
  const message = jsonString(response.json, 'message') || response.text.trim() || `Discord answered HTTP ${response.status}`;
  const code = jsonString(response.json, 'code');
  if (response.status === 401 || (code && GONE_CODES.has(code))) return new TokenExpiredError(message);
  const detail = firstFieldError(jsonAt(response.json, 'errors'));
  return new PlatformError(detail ? `${message} (${detail})` : message, { status: response.status });
}
