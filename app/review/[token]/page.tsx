// The client review page: the agency's drafts awaiting the client's approval, each as every
// targeted platform will show it, with its media and schedule. No login: the link is the key.
import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { loadReviewPage } from '@/server/http/client-link-pages';
import { formatInZone } from '@/server/shared/time-zone';
import { BrandHeader, ClientPage, LinkProblemPage } from '../../connect/_ui/brand';
import styles from '../../connect/_ui/client-page.module.css';
import { PLATFORM_LABELS, PlatformBadge } from '../../connect/_ui/platforms';
import { ReviewDecision } from './review-decision';

export const dynamic = 'force-dynamic';

export const metadata: Metadata = {
  title: 'Review posts',
  robots: { index: false, follow: false },
  referrer: 'no-referrer',
};

/** In the workspace's zone, written as the agency's staff read it (the zone named). */
function when(iso: string | null, timeZone: string): string {
  if (!iso) return 'Not scheduled yet';
  return formatInZone(iso, timeZone);
}

export default async function ReviewPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const loaded = await loadReviewPage({ token, headers: await headers() });
  if (loaded.problem) return <LinkProblemPage problem={loaded.problem} />;
  const { data } = loaded;

  return (
    <ClientPage>
      <BrandHeader brand={data.brand} />
      <section className={styles.card} aria-labelledby="review-title">
        <h1 id="review-title" className={styles.title}>
          Posts for {data.workspace.name} awaiting your approval
        </h1>
        <p className={styles.lead}>
          {data.posts.length === 0
            ? 'Nothing is waiting for you right now. New drafts will appear here.'
            : `${data.brand.name} prepared ${data.posts.length === 1 ? 'this post' : `these ${data.posts.length} posts`}. Approve each one, or send it back with a comment.`}
        </p>
      </section>

      {data.posts.map((post, index) => (
        <article key={post.id} className={styles.card} aria-labelledby={`post-${post.id}`} data-testid="review-post" data-post-id={post.id}>
          <h2 id={`post-${post.id}`} className={styles.sectionTitle}>
            Post {index + 1} of {data.posts.length}
          </h2>
          <p className={styles.schedule}>
            <strong>Goes out:</strong> {when(post.scheduledAt, data.workspace.timeZone)}
          </p>
          {post.previews.map((preview) => (
            <section
              key={`${post.id}-${preview.platform}-${preview.account.accountName}`}
              className={styles.preview}
              aria-label={`${PLATFORM_LABELS[preview.platform]} preview`}
            >
              <div className={styles.previewHead}>
                <PlatformBadge platform={preview.platform} />
                <span className={styles.accountText}>
                  <span className={styles.accountName}>{preview.account.displayName}</span>
                  <span className={styles.accountMeta}>
                    {PLATFORM_LABELS[preview.platform]} · {preview.account.accountName}
                  </span>
                </span>
              </div>
              <p className={styles.previewText}>{preview.content}</p>
              {post.media.length > 0 && (
                <div className={styles.media}>
                  {post.media.map((m, i) =>
                    m.kind === 'image' ? (
                      // eslint-disable-next-line @next/next/no-img-element -- media from the workspace's store, shown as-is
                      <img key={m.url} className={styles.mediaItem} src={m.url} alt={`Image ${i + 1} of the post`} width={160} height={160} loading="lazy" />
                    ) : (
                      <video key={m.url} className={styles.mediaItem} src={m.url} controls preload="metadata" aria-label={`Video ${i + 1} of the post`} />
                    ),
                  )}
                </div>
              )}
            </section>
          ))}
          <ReviewDecision token={token} postId={post.id} />
        </article>
      ))}
      <p className={styles.footer}>This private link was sent to you by {data.brand.name}.</p>
    </ClientPage>
  );
}
