// Slack live adapter: posts a Block Kit message through the channel's incoming webhook, which
// the client chose at consent (OAuth v2 scope incoming-webhook, server/connect/oauth/providers/slack.ts).
//
// Sources:
//   https://docs.slack.dev/messaging/sending-messages-using-incoming-webhooks (POST { text,
//     blocks } → 200 "ok"; errors as plain-text codes with 400/403/404/410)
//   https://docs.slack.dev/reference/block-kit/blocks/section-block (mrkdwn text, 3000)
//   https://docs.slack.dev/reference/block-kit/blocks/image-block (image_url, alt_text)
//
// The webhook URL is the secret (the connection's sealed access token). Herald posts only to
// the path of that URL on SLACK_WEBHOOK_BASE_URL (hooks.slack.com), never to another host.
// An incoming webhook answers "ok" and nothing else: no message ts, so no permalink. Herald
// keeps it that way rather than also asking for chat:write (which would need the bot invited
// to the channel): postedId is the target's idempotency key (a fresh id without one) and
// permalink null. Slack has no idempotency for webhooks.
import { randomUUID } from 'node:crypto';
import { PlatformError, TokenExpiredError, type Publisher } from '../publisher';
import { apiEndpoint, callApi, isSuccess, type AdapterOptions } from '../http';
import { mediaItems } from '../media';
import { PLATFORM_CATALOGUE } from '../catalogue';
import { escapeMrkdwn, SLACK_DEFAULT_WEBHOOK_BASE_URL, slackWebhookError } from './slack-api';

const { media } = PLATFORM_CATALOGUE.slack;

export function createSlackPublisher(options: AdapterOptions = {}): Publisher<'slack'> {
  return {
    async publish(connection, request) {
      const { fetch, baseUrl } = apiEndpoint(options, 'SLACK_WEBHOOK_BASE_URL', SLACK_DEFAULT_WEBHOOK_BASE_URL);
      const path = webhookPath(connection.accessToken);
      const items = mediaItems(request);
      if (items.some((i) => i.kind === 'video')) throw new PlatformError('A Slack incoming webhook cannot post videos');
      if (items.length > media.maxImages) throw new PlatformError(`A Slack message takes at most ${media.maxImages} images`);

      const text = escapeMrkdwn(request.content);
      const altTexts = request.settings.altTexts ?? [];
      const blocks = [
        ...(text.trim() ? [{ type: 'section', text: { type: 'mrkdwn', text } }] : []),
        ...items.map((item, index) => ({ type: 'image', image_url: item.url, alt_text: altTexts[index]?.trim() || `Image ${index + 1}` })),
      ];
      // `text` is the notification's fallback when blocks are present.
      const response = await callApi(fetch, `${baseUrl}${path}`, {
        method: 'POST',
        json: { text: text.trim() ? text : 'Image', blocks },
        timeoutMs: options.timeoutMs,
      });
      if (!isSuccess(response)) throw slackWebhookError(response);
      return { postedId: request.idempotencyKey ?? randomUUID(), permalink: null };
    },
  };
}

/** "/services/T…/B…/…" of the stored webhook URL. */
function webhookPath(stored: string | null): string {
  if (!stored) throw new TokenExpiredError('No Slack webhook is stored for this channel; reconnect it to publish.');
  try {
    const { pathname } = new URL(stored);
    if (pathname.startsWith('/services/')) return pathname;
  } catch {
    // fall through
  }
  throw new TokenExpiredError('The stored Slack webhook is not one Slack issued; reconnect the channel.');
}
