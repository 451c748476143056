// Calls to the Telegram Bot API (https://core.telegram.org/bots/api#making-requests):
// POST <base>/bot<token>/<method>, parameters as JSON or multipart/form-data, and every answer
// { "ok": true, "result": … } or { "ok": false, "error_code", "description", "parameters" }.
// A 429 carries parameters.retry_after (seconds), which callApi waits out.
import { callApi, jsonAt, multipartBody, type ApiResponse, type Fetcher, type MultipartPart } from '../http';

export const TELEGRAM_DEFAULT_BASE_URL = 'https://api.telegram.org';

/** A refusal as Telegram words it: `description` verbatim, `error_code` as the status. */
export class TelegramApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'TelegramApiError';
  }
}

/** The bot's numeric id: the part of its token before the colon. */
export const botIdOf = (botToken: string): string => botToken.split(':')[0] ?? '';

export const telegramRetryAfter = (response: ApiResponse): number | null => {
  const seconds = Number(jsonAt(response.json, 'parameters', 'retry_after'));
  return Number.isFinite(seconds) && seconds >= 0 ? Math.ceil(seconds * 1000) : null;
};

export interface TelegramClient {
  /** One Bot API method with JSON parameters; the `result` on success, else throws TelegramApiError. */
  call(method: string, params?: Record<string, unknown>): Promise<unknown>;
  /** The same with files: multipart/form-data, each file attached under its own part name. */
  upload(method: string, parts: MultipartPart[], timeoutMs?: number): Promise<unknown>;
}

export function telegramClient(fetch: Fetcher, baseUrl: string, botToken: string, timeoutMs?: number): TelegramClient {
  const url = (method: string) => `${baseUrl}/bot${botToken}/${method}`;
  const settle = (response: ApiResponse): unknown => {
    if (jsonAt(response.json, 'ok') === true) return jsonAt(response.json, 'result');
    const description = jsonAt(response.json, 'description');
    const code = Number(jsonAt(response.json, 'error_code')) || response.status;
    throw new TelegramApiError(typeof description === 'string' && description ? description : `Telegram answered HTTP ${response.status}`, code);
  };
  return {
    async call(method, params = {}) {
      return settle(await callApi(fetch, url(method), { method: 'POST', json: params, timeoutMs, retryAfter: telegramRetryAfter }));
    },
    async upload(method, parts, uploadTimeoutMs) {
      const { body, contentType } = multipartBody(parts);
      return settle(
        await callApi(fetch, url(method), {
          method: 'POST',
          headers: { 'content-type': contentType },
          body,
          timeoutMs: uploadTimeoutMs ?? timeoutMs,
          retryAfter: telegramRetryAfter,
        }),
      );
    },
  };
}
