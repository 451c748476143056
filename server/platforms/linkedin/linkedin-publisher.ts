// LinkedIn live adapter: Posts API as a member (urn:li:person) or a page (urn:li:organization).
//
// Sources:
//   https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/posts-api
//     POST /rest/posts { author, commentary, visibility, distribution: { feedDistribution:
//     'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] }, lifecycleState:
//     'PUBLISHED', isReshareDisabledByAuthor, content? } → 201, post URN in the x-restli-id header
//   https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/multiimage-post-api (2 to 20 images)
//   https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/little-text-format
//   https://learn.microsoft.com/en-us/linkedin/shared/authentication/programmatic-refresh-tokens
//     POST https://www.linkedin.com/oauth/v2/accessToken grant_type=refresh_token
//
// Permalink: https://www.linkedin.com/feed/update/<post urn>/
import { PlatformError, type Publisher } from '../publisher';
import { apiEndpoint, jsonString, pollSettings, type AdapterOptions, type Fetcher } from '../http';
import { PLATFORM_CATALOGUE } from '../catalogue';
import { imagesOrOneVideo, mediaItems, type ImagesOrVideoRefusals } from '../media';
import { refreshTokenGrant, withAccessToken, type TokenRefresher } from '../token-refresh';
import { authorUrn, LINKEDIN_DEFAULT_BASE_URL, LINKEDIN_DEFAULT_VERSION, linkedinClient } from './linkedin-api';
import { uploadImage, uploadVideo, type UploadContext } from './linkedin-media';
import { toLittleText } from './little-text';
import { env } from '@/server/config/env';
import { LINKEDIN_DEFAULT_OAUTH_BASE_URL, oauthApps } from '../oauth-apps';

const { media } = PLATFORM_CATALOGUE.linkedin;
const MEDIA_REFUSALS: ImagesOrVideoRefusals = {
  mixed: 'A LinkedIn post takes images or one video, not both or several videos',
  tooManyImages: `A LinkedIn post takes at most ${media.maxImages} images`,
};

export interface LinkedInOptions extends AdapterOptions {
  oauthBaseUrl?: string;
  version?: string;
  /** The app's OAuth client, for refreshing tokens (LINKEDIN_CLIENT_ID / LINKEDIN_CLIENT_SECRET). */
  clientId?: string;
  clientSecret?: string;
}

export function createLinkedInPublisher(options: LinkedInOptions = {}): Publisher<'linkedin'> {
  return {
    async publish(connection, request, { tokens }) {
      const { fetch, baseUrl } = apiEndpoint(options, 'LINKEDIN_API_BASE_URL', LINKEDIN_DEFAULT_BASE_URL);
      const version = options.version ?? env.linkedinApiVersion() ?? LINKEDIN_DEFAULT_VERSION;
      const items = imagesOrOneVideo(mediaItems(request), media, MEDIA_REFUSALS);
      const visibility = request.settings.visibility ?? 'PUBLIC';
      const author = authorUrn(connection.externalId);

      return withAccessToken(connection, linkedinRefresher(fetch, options), tokens, async (token) => {
        const api = linkedinClient(fetch, baseUrl, token, version, options.timeoutMs);
        const ctx: UploadContext = { api, fetch, accessToken: token, owner: author, polling: pollSettings(options) };

        let content: unknown;
        if (items[0]?.kind === 'video') {
          content = { media: { id: await uploadVideo(ctx, items[0]) } };
        } else if (items.length === 1) {
          content = { media: { id: await uploadImage(ctx, items[0]!) } };
        } else if (items.length > 1) {
          const images: { id: string }[] = [];
          for (const item of items) images.push({ id: await uploadImage(ctx, item) });
          content = { multiImage: { images } };
        }

        const created = await api.call('POST', '/rest/posts', {
          author,
          commentary: toLittleText(request.content),
          visibility,
          distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
          lifecycleState: 'PUBLISHED',
          isReshareDisabledByAuthor: false,
          ...(content ? { content } : {}),
        });
        const urn = created.headers.get('x-restli-id') ?? jsonString(created.json, 'id');
        if (!urn) throw new PlatformError('LinkedIn accepted the post but returned no post id');
        return { postedId: urn, permalink: `https://www.linkedin.com/feed/update/${urn}/` };
      });
    },
  };
}

/** Refresh tokens exist only for apps LinkedIn enabled them for; without app credentials there is none. */
export function linkedinRefresher(fetch: Fetcher, options: LinkedInOptions): TokenRefresher | null {
  const oauthApp = oauthApps.linkedin();
  const clientId = options.clientId ?? oauthApp?.clientId;
  const clientSecret = options.clientSecret ?? oauthApp?.clientSecret;
  if (!clientId || !clientSecret) return null;
  const tokenUrl = options.oauthBaseUrl ? `${options.oauthBaseUrl}/accessToken` : (oauthApp?.tokenUrl ?? `${LINKEDIN_DEFAULT_OAUTH_BASE_URL}/accessToken`);
  return refreshTokenGrant(fetch, {
    platform: 'LinkedIn',
    url: tokenUrl,
    client: { client_id: clientId, client_secret: clientSecret },
    errorKeys: ['message'],
    requireOkStatus: true,
    timeoutMs: options.timeoutMs,
  });
}
