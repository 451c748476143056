// One media file as a thumbnail: the image, or a video's first frame. Wherever a post is shown
// for a decision (the queue, the post page, the composer, the calendar, a staged action).
const VIDEO = /\.(mp4|m4v|mov|webm)(\?|#|$)/i;

/** What a media URL shows, by its file name (uploads carry their kind; this is for URLs). */
export const mediaKindOf = (url: string): 'image' | 'video' => (VIDEO.test(url) ? 'video' : 'image');

export function MediaThumb({ url, kind = mediaKindOf(url), label, className }: { url: string; kind?: 'image' | 'video'; label: string; className?: string }) {
  return kind === 'video' ? (
    <video src={`${url}#t=0.1`} preload="metadata" muted aria-label={label} className={className} />
  ) : (
    // eslint-disable-next-line @next/next/no-img-element -- the workspace's own media, any origin
    <img src={url} alt={label} loading="lazy" className={className} />
  );
}
