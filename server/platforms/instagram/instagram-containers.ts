// Which Instagram media containers a post needs, as POST /{ig-user-id}/media parameter sets.
//
// https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user/media
//   image: image_url (+ caption); reel: media_type=REELS, video_url, share_to_feed, cover_url;
//   story: media_type=STORIES with image_url or video_url (stories take no caption);
//   carousel: up to 10 children (image_url, or media_type=VIDEO + video_url, each with
//   is_carousel_item=true), then media_type=CAROUSEL with children=<ids> and the caption.
// https://developers.facebook.com/docs/instagram-platform/instagram-api-with-facebook-login/content-publishing
//   "all single feed videos published through the Instagram Content Publishing API will be
//   shared as reels", so a single feed video is a REELS container with share_to_feed=true.
import { PlatformError } from '../publisher';
import { PLATFORM_CATALOGUE, type PlatformSettingsOf } from '../catalogue';
import type { GraphParams } from '../graph-api';
import type { MediaItem } from '../media';

export type InstagramSettings = PlatformSettingsOf<'instagram'>;

const { media } = PLATFORM_CATALOGUE.instagram;

export type ContainerPlan = { kind: 'single'; params: GraphParams } | { kind: 'carousel'; children: GraphParams[]; params: GraphParams };

export function planContainers(items: MediaItem[], caption: string, settings: InstagramSettings): ContainerPlan {
  if (items.length === 0) throw new PlatformError('Instagram posts need at least one image or video');
  if (settings.videoType === 'story') {
    if (items.length > media.story.maxItems) throw new PlatformError('An Instagram story takes exactly one image or video');
    const [item] = items as [MediaItem];
    return { kind: 'single', params: { media_type: 'STORIES', ...(item.kind === 'video' ? { video_url: item.url } : { image_url: item.url }) } };
  }
  if (items.length === 1) {
    const [item] = items as [MediaItem];
    if (item.kind === 'image') return { kind: 'single', params: { image_url: item.url, caption } };
    // A feed video is a reel shown in the feed too; a reel goes to the feed unless told not to.
    const shareToFeed = settings.videoType === 'feed' ? true : (settings.shareToFeed ?? true);
    return {
      kind: 'single',
      params: { media_type: 'REELS', video_url: item.url, caption, share_to_feed: shareToFeed, cover_url: settings.coverUrl },
    };
  }
  if (items.length > media.maxItems) {
    throw new PlatformError(`An Instagram carousel takes at most ${media.maxItems} images and videos`);
  }
  return {
    kind: 'carousel',
    children: items.map((item) =>
      item.kind === 'video' ? { media_type: 'VIDEO', video_url: item.url, is_carousel_item: true } : { image_url: item.url, is_carousel_item: true },
    ),
    params: { media_type: 'CAROUSEL', caption },
  };
}
