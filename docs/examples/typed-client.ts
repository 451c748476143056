// A typed Herald client in a few lines: types generated from the live contract document with
// openapi-typescript, calls made with openapi-fetch. Herald's tests compile this file under
// `tsc --strict` against types generated from the current document
// (server/http/typed-client.test.ts), so it cannot fall out of date.
//
//   npx openapi-typescript https://herald.example/public/v1/openapi.json -o herald-api.d.ts
//
import createClient from 'openapi-fetch';
import type { components, paths } from './herald-api';

type ErrorCode = components['schemas']['ErrorEnvelope']['error']['code'];

const herald = createClient<paths>({
  baseUrl: 'https://herald.example/public/v1',
  headers: { Authorization: `Bearer ${process.env.HERALD_API_KEY}` },
});

/** Schedules a post; says what to do when Herald refuses it, by the error's stable code. */
export async function scheduleLaunch(connectionId: string): Promise<string> {
  const { data, error, response } = await herald.POST('/posts', {
    params: { header: { 'Idempotency-Key': 'launch-2026-11-24' } },
    body: {
      content: 'Our autumn menu is here: pumpkin spice is back from Monday.',
      connectionIds: [connectionId],
      scheduledAt: '2026-11-24T09:00:00Z',
      // Typed per platform from the catalogue: a misspelt key does not compile.
      platformSettings: { facebook: { firstComment: 'Full menu: https://acme-coffee.example/menu' } },
      variants: { twitter: { content: 'Pumpkin spice is back on Monday' } },
    },
  });
  if (data) {
    const pending = data.warnings.some((w) => w.code === 'APPROVAL_REQUIRED');
    return pending ? `post ${data.data.id} waits for approval` : `post ${data.data.id} is ${data.data.status}`;
  }
  // Herald's own errors carry { error: { code, message, field? } }; schema validation and
  // authentication failures the flat { statusCode, message, error }.
  if (error && 'error' in error && typeof error.error === 'object') {
    const code: ErrorCode = error.error.code;
    switch (code) {
      case 'CONNECTION_EXPIRED':
        return 'reconnect the account in Herald, then send again';
      case 'PLATFORM_SETTING_UNKNOWN':
        return `fix platformSettings at ${error.error.field ?? '?'}`;
      case 'SCHEDULED_TIME_IN_PAST':
        return 'pick a time in the future';
      default:
        return `refused (${code}): ${error.error.message}`;
    }
  }
  return `refused with HTTP ${response.status}`;
}

/** Reads one post's delivery, narrowing the not-found case by its code. */
export async function deliveryOf(postId: string): Promise<string[]> {
  const { data, error } = await herald.GET('/posts/{id}', { params: { path: { id: postId } } });
  if (error) {
    if ('error' in error && typeof error.error === 'object' && error.error.code === 'POST_NOT_FOUND') return [];
    throw new Error(JSON.stringify(error));
  }
  return data.data.targets.map((t) => `${t.platform}: ${t.status}${t.permalink ? ` ${t.permalink}` : ''}`);
}
