// Where a demo account's permalink leads: the post as the demo account published it, inside
// Herald, and plainly marked as a demo (nothing reached the network). No login, like a real
// permalink a client opens from a report.
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { PLATFORM_CATALOGUE } from '@/server/platforms/catalogue';
import { readDemoPost } from '@/server/posts/demo-post';
import { formatInZone } from '@/server/shared/time-zone';
import { ClientPage } from '../../../connect/_ui/brand';
import styles from '../../../connect/_ui/client-page.module.css';
import { PlatformBadge } from '../../../connect/_ui/platforms';

export const dynamic = 'force-dynamic';

export const metadata: Metadata = {
  title: 'Demo post',
  robots: { index: false, follow: false },
  referrer: 'no-referrer',
};

export default async function DemoPostPage({ params }: { params: Promise<{ platform: string; postedId: string }> }) {
  const { platform, postedId } = await params;
  const post = await readDemoPost(platform, decodeURIComponent(postedId));
  if (!post) notFound();
  const network = PLATFORM_CATALOGUE[post.platform].label;
  return (
    <ClientPage>
      <section className={styles.card} aria-labelledby="demo-title" data-testid="demo-post">
        <p className={styles.notice} role="note">
          A demo account published this post inside Herald. Nothing was posted to {network}, and this page is the only place it can be seen.
        </p>
        <div className={styles.previewHead}>
          <PlatformBadge platform={post.platform} />
          <div>
            <h1 id="demo-title" className={styles.title}>
              {post.displayName}
            </h1>
            <p className={styles.accountMeta}>
              {post.accountName} · {network} demo account
            </p>
          </div>
        </div>
        <p className={styles.previewText}>{post.content}</p>
        {post.mediaCount > 0 ? (
          <p className={styles.accountMeta}>
            With {post.mediaCount} {post.mediaCount === 1 ? 'image or video' : 'images or videos'}.
          </p>
        ) : null}
        {post.publishedAt ? (
          <p className={styles.accountMeta}>
            Published <time dateTime={post.publishedAt}>{formatInZone(post.publishedAt, post.timeZone)}</time>
          </p>
        ) : null}
      </section>
    </ClientPage>
  );
}
