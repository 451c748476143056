// Google Business Profile live adapter: a local post on the connected location.
//
// Sources:
//   https://developers.google.com/my-business/reference/rest/v4/accounts.locations.localPosts/create
//     POST /v4/{parent=accounts/*/locations/*}/localPosts, body LocalPost → LocalPost (name,
//     searchUrl: "The link to the local post in Google Search", state)
//   https://developers.google.com/my-business/reference/rest/v4/accounts.locations.localPosts#LocalPost
//     summary, callToAction { actionType, url }, event { title, schedule { startDate, startTime,
//     endDate, endTime } }, offer { couponCode, redeemOnlineUrl, termsConditions },
//     media [ { mediaFormat: PHOTO, sourceUrl } ], topicType STANDARD | EVENT | OFFER
//   https://developers.google.com/my-business/content/posts-data (examples)
//
// The photo is fetched by Google from its URL (sourceUrl), like TikTok and Instagram pull
// theirs. Google has no idempotency key for local posts, so request.idempotencyKey is not used.
// Times are the location's local time, as Google reads a schedule without a zone.
import { PlatformError, type Publisher, type PublishRequest } from '../publisher';
import { apiEndpoint, callApi, jsonString, type AdapterOptions } from '../http';
import { mediaItems } from '../media';
import { withAccessToken } from '../token-refresh';
import { oauthApps } from '../oauth-apps';
import { googleError, googleRefresher, type GoogleClient } from '../google/google-api';
import { GOOGLE_BUSINESS_DEFAULT_BASE_URL, googleBusinessHosts, LOCATION_NAME } from './google-business-api';

export interface GoogleBusinessOptions extends AdapterOptions, GoogleClient {}

type Settings = PublishRequest<'google_business'>['settings'];

export function createGoogleBusinessPublisher(options: GoogleBusinessOptions = {}): Publisher<'google_business'> {
  return {
    async publish(connection, request, { tokens }) {
      const { fetch, baseUrl } = apiEndpoint(options, 'GOOGLE_BUSINESS_API_BASE_URL', GOOGLE_BUSINESS_DEFAULT_BASE_URL);
      if (!LOCATION_NAME.test(connection.externalId)) {
        throw new PlatformError(`This Google Business Profile connection names no location (${connection.externalId}); reconnect it`);
      }
      const body = localPost(request);
      const refresher = googleRefresher(fetch, options, oauthApps.google_business());
      const { posts } = googleBusinessHosts(baseUrl);

      return withAccessToken(connection, refresher, tokens, async (token) => {
        const response = await callApi(fetch, `${posts}/v4/${connection.externalId}/localPosts`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}` },
          json: body,
          timeoutMs: options.timeoutMs,
        });
        const error = googleError(response, 'Google Business Profile');
        if (error) throw error;
        const name = jsonString(response.json, 'name');
        if (!name) throw new PlatformError('Google Business Profile accepted the post but returned no name');
        // searchUrl is absent while Google reviews the post (state PROCESSING): no permalink then.
        return { postedId: name, permalink: jsonString(response.json, 'searchUrl') ?? null };
      });
    },
  };
}

function localPost(request: PublishRequest<'google_business'>) {
  const settings: Settings = request.settings;
  const topicType = settings.topicType ?? 'STANDARD';
  const items = mediaItems(request);
  if (items.some((i) => i.kind === 'video') || items.length > 1) throw new PlatformError('A Google Business Profile post takes at most one photo');
  if ((topicType === 'EVENT' || topicType === 'OFFER') && !settings.event) {
    throw new PlatformError(`Google Business Profile ${topicType.toLowerCase()} posts need an event title and dates (platformSettings.google_business.event)`);
  }
  return {
    ...(settings.languageCode ? { languageCode: settings.languageCode } : {}),
    ...(request.content ? { summary: request.content } : {}),
    ...(settings.callToAction ? { callToAction: settings.callToAction } : {}),
    ...(settings.event ? { event: event(settings.event) } : {}),
    ...(topicType === 'OFFER' && settings.offer ? { offer: settings.offer } : {}),
    ...(items.length ? { media: [{ mediaFormat: 'PHOTO', sourceUrl: items[0]!.url }] } : {}),
    topicType,
  };
}

function event(e: NonNullable<Settings['event']>) {
  const day = (d: string) => {
    const [year, month, dayOfMonth] = d.split('-').map(Number);
    return { year, month, day: dayOfMonth };
  };
  const at = (t: string) => {
    const [hours, minutes] = t.split(':').map(Number);
    return { hours, minutes, seconds: 0, nanos: 0 };
  };
  return {
    title: e.title,
    schedule: {
      startDate: day(e.startDate),
      ...(e.startTime ? { startTime: at(e.startTime) } : {}),
      endDate: day(e.endDate),
      ...(e.endTime ? { endTime: at(e.endTime) } : {}),
    },
  };
}
