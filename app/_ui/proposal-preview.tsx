// What a staged action would do, for the member deciding on it — on the confirmation page and
// in the app's Assistant list alike: the post as each account will show it, its media, its
// time in the workspace's zone, and for a destructive action what it takes away.
import { MediaThumb, mediaKindOf } from './media-thumb';
import type { ProposalPreviewDto } from '@/server/proposals/proposal-preview';

export function ProposalPreview({ preview }: { preview: ProposalPreviewDto }) {
  const { post, consequence } = preview;
  if (!post && !consequence) return null;
  return (
    <div className="space-y-2 text-sm" data-testid="proposal-preview">
      {consequence ? (
        <p className="rounded-md border border-amber-200 bg-amber-50 p-2 text-amber-900" data-testid="proposal-consequence">
          {consequence}
        </p>
      ) : null}
      {post ? (
        <>
          <p>
            <span className="font-medium">When: </span>
            {post.when ?? 'not scheduled (published only when someone publishes it)'}
          </p>
          <ul className="space-y-2" aria-label="What each account will show">
            {post.accounts.map((a, i) => (
              <li key={`${a.name}-${i}`} className="rounded-md border border-slate-200 bg-white p-2">
                <p className="text-xs font-semibold text-slate-700">
                  {a.name} · {a.platform}
                </p>
                <p className="break-words whitespace-pre-wrap text-slate-900">{a.text}</p>
              </li>
            ))}
          </ul>
          {post.media.length ? (
            <ul className="flex flex-wrap gap-2" aria-label={`${post.media.length} media`}>
              {post.media.map((url, i) => (
                <li key={`${url}-${i}`} className="size-20 overflow-hidden rounded-md border border-slate-200 bg-slate-100">
                  <MediaThumb
                    url={url}
                    label={`${mediaKindOf(url) === 'video' ? 'Video' : 'Image'} ${i + 1} of the post`}
                    className="h-full w-full object-cover"
                  />
                </li>
              ))}
            </ul>
          ) : null}
        </>
      ) : null}
    </div>
  );
}
