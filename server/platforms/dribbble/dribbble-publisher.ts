// Dribbble live adapter: one shot on the account of the user who connected.
//
// Source: https://developer.dribbble.com/v2/shots/#create-a-shot
//   POST /v2/shots, multipart/form-data: image (file, required), title (required), description,
//   tags[] (up to 12), low_profile → 202 Accepted with a Location header naming the shot
//   (https://api.dribbble.com/v2/shots/{id}); "creating a shot happens asynchronously": the shot
//   answers 404 until Dribbble has processed it.
//
// The title is the `title` setting, else the text's first line (the rest is then the
// description). The image is read from Herald's storage and sent as the file part. postedId is
// the id at the end of the Location; the permalink is the shot's page on dribbble.com, which
// Dribbble serves from the id alone. Dribbble takes no idempotency key: an interrupted publish is
// settled by asking for the user's newest shots (dribbble-reconcile.ts).
import { PlatformError, type Publisher, type PublishRequest } from '../publisher';
import { apiEndpoint, multipartBody, UPLOAD_TIMEOUT_MS, type AdapterOptions, type MultipartPart } from '../http';
import { PLATFORM_CATALOGUE } from '../catalogue';
import { articleOf } from '../catalogue/long-form';
import { DRIBBBLE_IMAGE_TYPES, DRIBBBLE_MAX_TITLE } from '../catalogue/dribbble';
import { downloadMedia, mediaItems } from '../media';
import { withAccessToken } from '../token-refresh';
import { DRIBBBLE_DEFAULT_BASE_URL, dribbbleClient } from './dribbble-api';

const { media } = PLATFORM_CATALOGUE.dribbble;

/** A shot's page on dribbble.com. */
export function dribbbleShotUrl(id: string): string {
  return `https://dribbble.com/shots/${encodeURIComponent(id)}`;
}

/** The shot's title and description: the title setting and the whole text, or the first line and the rest. */
export function shotText(request: Pick<PublishRequest<'dribbble'>, 'content' | 'settings'>): { title: string; description: string } {
  const { title, body } = articleOf(request.content, request.settings.title, DRIBBBLE_MAX_TITLE);
  const given = Boolean(request.settings.title?.trim());
  // A derived title took the first line: the description is what follows it, if anything.
  const description = given || body !== request.content.replace(/\r\n?/g, '\n').trim() ? body : '';
  return { title, description };
}

/** The shot's id from the Location Dribbble answers with (…/shots/{id}). */
function shotIdFrom(location: string | null): string | null {
  if (!location) return null;
  const match = /\/shots\/(\d+)(?:[/?#]|$)/.exec(location);
  return match?.[1] ?? null;
}

export function createDribbblePublisher(options: AdapterOptions = {}): Publisher<'dribbble'> {
  return {
    async publish(connection, request, { tokens }) {
      const { fetch, baseUrl } = apiEndpoint(options, 'DRIBBBLE_API_BASE_URL', DRIBBBLE_DEFAULT_BASE_URL);
      const items = mediaItems(request);
      if (items.length !== 1 || items[0]!.kind !== 'image') throw new PlatformError('A Dribbble shot takes exactly one image');
      const { title, description } = shotText(request);
      if (!title) throw new PlatformError('A Dribbble shot needs a title: give one, or start the text with it');

      // Read once, before the token is used: a second try sends the same bytes.
      const image = await downloadMedia(fetch, items[0]!, media.maxImageBytes!);
      if (!(DRIBBBLE_IMAGE_TYPES as readonly string[]).includes(image.contentType)) {
        throw new PlatformError(`Dribbble takes a GIF, JPG or PNG image; this one is ${image.contentType}`);
      }
      const filename = new URL(items[0]!.url).pathname.split('/').pop() || 'shot';
      const { tags, lowProfile } = request.settings;
      const parts: MultipartPart[] = [
        { name: 'image', value: image.bytes, filename, contentType: image.contentType },
        { name: 'title', value: title },
        ...(description ? [{ name: 'description', value: description }] : []),
        ...(tags ?? []).map((tag) => ({ name: 'tags[]', value: tag })),
        ...(lowProfile ? [{ name: 'low_profile', value: 'true' }] : []),
      ];
      const form = multipartBody(parts);

      // Dribbble's tokens do not expire and it grants no refresh token: a refused one is a reconnect.
      return withAccessToken(connection, null, tokens, async (token) => {
        const api = dribbbleClient(fetch, baseUrl, token, options.timeoutMs);
        const created = await api.call('POST', '/shots', { headers: { 'content-type': form.contentType }, body: form.body, timeoutMs: UPLOAD_TIMEOUT_MS });
        const id = shotIdFrom(created.headers.get('location'));
        if (!id) throw new PlatformError('Dribbble accepted the shot but did not say where it is (no Location)');
        return { postedId: id, permalink: dribbbleShotUrl(id) };
      });
    },
  };
}
