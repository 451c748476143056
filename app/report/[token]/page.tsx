// The client report page: how a managed workspace's posts did over the link's range of days,
// read-only and without login (the link is the key). Headline numbers with their coverage, a
// per-day chart (server-rendered SVG), per-network comparison, top posts with previews, what
// was published, and the same report as a PDF.
import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { ENGAGEMENT_NOTE, formatCount, NOT_AVAILABLE_NOTE, TOTALS_NOTE, responseTimesText } from '@/server/client-report/report-words';
import { loadReportPage } from '@/server/http/client-link-pages';
import { formatInZone } from '@/server/shared/time-zone';
import { BrandHeader, ClientPage, LinkProblemPage } from '../../connect/_ui/brand';
import styles from '../../connect/_ui/client-page.module.css';
import { PLATFORM_LABELS, PlatformBadge } from '../../connect/_ui/platforms';
import own from './report.module.css';
import { isDemoPermalink } from '@/server/shared/demo-post';

export const dynamic = 'force-dynamic';

export const metadata: Metadata = {
  title: 'Results report',
  robots: { index: false, follow: false },
  referrer: 'no-referrer',
};

const label = (platform: string) => PLATFORM_LABELS[platform] ?? platform;

function DayChart({ days }: { days: { date: string; engagement: number | null; targets: number }[] }) {
  const width = 600;
  const height = 160;
  const max = Math.max(0, ...days.map((d) => d.engagement ?? 0));
  const slot = width / Math.max(1, days.length);
  const bar = Math.max(1, slot * 0.75);
  const best = days.reduce<{ date: string; engagement: number } | null>(
    (m, d) => (d.engagement !== null && (!m || d.engagement > m.engagement) ? { date: d.date, engagement: d.engagement } : m),
    null,
  );
  const summary = best
    ? `Engagement per day from ${days[0]?.date} to ${days.at(-1)?.date}; the highest was ${formatCount(best.engagement)} on ${best.date}.`
    : `No engagement was reported between ${days[0]?.date} and ${days.at(-1)?.date}.`;
  return (
    <figure style={{ margin: 0 }}>
      <svg className={own.chart} viewBox={`0 0 ${width} ${height + 2}`} role="img" aria-label={summary} data-testid="report-chart">
        <line x1={0} y1={height} x2={width} y2={height} stroke="#4f5663" strokeWidth={1} />
        {days.map((d, i) => {
          if (d.engagement === null || max === 0) return null;
          const h = (d.engagement / max) * (height - 4);
          return (
            <rect key={d.date} x={i * slot + (slot - bar) / 2} y={height - h} width={bar} height={h} rx={Math.min(3, bar / 3)} fill="#2f4ac0">
              <title>{`${d.date}: ${formatCount(d.engagement)} engagement, ${d.targets} post${d.targets === 1 ? '' : 's'}`}</title>
            </rect>
          );
        })}
      </svg>
      <div className={own.axis} aria-hidden="true">
        <span>{days[0]?.date}</span>
        <span>{days.at(-1)?.date}</span>
      </div>
      <figcaption className={own.note}>{summary}</figcaption>
    </figure>
  );
}

export default async function ReportPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const loaded = await loadReportPage({ token, headers: await headers() });
  if (loaded.problem) return <LinkProblemPage problem={loaded.problem} />;
  const { data } = loaded;
  const h = data.headline;
  const zone = data.workspace.timeZone;
  const stats: [string, number | null][] = [
    ['Posts published', h.posts],
    ['Accounts posted to', h.targets],
    ['Engagement', h.engagement],
    ['Impressions', h.impressions],
    ['Reach', h.reach],
    ['Views', h.views],
    ['Tracked link clicks', h.clicks],
  ];

  return (
    <ClientPage>
      <BrandHeader brand={data.brand} />
      <section className={styles.card} aria-labelledby="report-title">
        <div className={own.headerRow}>
          <div>
            <h1 id="report-title" className={styles.title}>
              {data.title}
            </h1>
            <p className={styles.lead}>
              {data.workspace.name} · {data.range.from} to {data.range.to} ({zone})
            </p>
          </div>
          <a className={own.download} href={`/public/report/${token}/pdf`} download data-testid="report-pdf">
            Download PDF
          </a>
        </div>
      </section>

      <section className={styles.card} aria-labelledby="headline-title">
        <h2 id="headline-title" className={styles.sectionTitle}>
          Headline numbers
        </h2>
        <dl className={own.cards}>
          {stats.map(([name, value]) => (
            <div key={name} className={own.stat} data-testid="report-stat">
              <dt className={own.statLabel}>{name}</dt>
              <dd className={own.statValue} style={{ margin: 0 }}>
                {formatCount(value)}
              </dd>
            </div>
          ))}
        </dl>
        <p className={own.note} data-testid="report-coverage">
          {h.coverage}. {TOTALS_NOTE} {NOT_AVAILABLE_NOTE}
        </p>
      </section>

      <section className={styles.card} aria-labelledby="replies-title">
        <h2 id="replies-title" className={styles.sectionTitle}>
          Replies to comments, messages and reviews
        </h2>
        <p data-testid="report-response-times">{responseTimesText(data.responseTimes)}</p>
      </section>

      <section className={styles.card} aria-labelledby="chart-title">
        <h2 id="chart-title" className={styles.sectionTitle}>
          Engagement per day
        </h2>
        <DayChart days={data.days} />
      </section>

      <section className={styles.card} aria-labelledby="networks-title">
        <h2 id="networks-title" className={styles.sectionTitle}>
          By network
        </h2>
        {data.networks.length === 0 ? (
          <p className={styles.lead}>Nothing was published in this period.</p>
        ) : (
          <div className={own.tableWrap} tabIndex={0} role="region" aria-labelledby="networks-title">
            <table className={own.table}>
              <thead>
                <tr>
                  <th scope="col">Network</th>
                  <th scope="col">Posts</th>
                  <th scope="col">Engagement</th>
                  <th scope="col">Impressions</th>
                  <th scope="col">Reach</th>
                  <th scope="col">Views</th>
                  <th scope="col">Tracked link clicks</th>
                </tr>
              </thead>
              <tbody>
                {data.networks.map((n) => (
                  <tr key={n.platform}>
                    <th scope="row">{label(n.platform)}</th>
                    <td>{n.targets}</td>
                    <td>{formatCount(n.engagement)}</td>
                    <td>{formatCount(n.impressions)}</td>
                    <td>{formatCount(n.reach)}</td>
                    <td>{formatCount(n.views)}</td>
                    <td>{formatCount(n.clicks)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <section className={styles.card} aria-labelledby="top-title">
        <h2 id="top-title" className={styles.sectionTitle}>
          Top posts
        </h2>
        {data.topPosts.length === 0 ? (
          <p className={styles.lead}>No post has a reading yet.</p>
        ) : (
          <ol className={own.posts}>
            {data.topPosts.map((p) => {
              const image = p.media.find((m) => m.kind === 'image');
              return (
                <li key={p.targetId} className={own.post} data-testid="report-top-post">
                  {image ? (
                    // eslint-disable-next-line @next/next/no-img-element -- media from the workspace's store, shown as-is
                    <img
                      className={own.thumb}
                      src={image.url}
                      alt={`Image of the ${label(p.platform)} post ranked ${p.rank}`}
                      width={72}
                      height={72}
                      loading="lazy"
                    />
                  ) : null}
                  <div className={own.postBody}>
                    <p className={own.postMeta}>
                      <strong>#{p.rank}</strong> · {label(p.platform)} · {p.accountName} · {formatInZone(p.publishedAt, zone)}
                    </p>
                    <p className={own.postText}>{p.content}</p>
                    <ul className={own.metrics} aria-label="Results">
                      <li>Engagement {formatCount(p.latest.engagement)}</li>
                      <li>Impressions {formatCount(p.latest.metrics.impressions)}</li>
                      <li>Reach {formatCount(p.latest.metrics.reach)}</li>
                      {p.latest.metrics.views !== null && <li>Views {formatCount(p.latest.metrics.views)}</li>}
                      <li>Tracked link clicks {formatCount(p.clicks)}</li>
                    </ul>
                    {p.permalink && (
                      <a className={own.link} href={p.permalink} target="_blank" rel="noopener noreferrer">
                        {isDemoPermalink(p.permalink) ? 'See the demo post' : `View on ${label(p.platform)}`}
                      </a>
                    )}
                  </div>
                </li>
              );
            })}
          </ol>
        )}
      </section>

      <section className={styles.card} aria-labelledby="published-title">
        <h2 id="published-title" className={styles.sectionTitle}>
          Published ({data.published.length})
        </h2>
        {data.published.length === 0 ? (
          <p className={styles.lead}>Nothing was published in this period.</p>
        ) : (
          <ul className={own.posts}>
            {data.published.map((p) => {
              const image = p.media.find((m) => m.kind === 'image');
              return (
                <li key={p.postId} className={own.post} data-testid="report-published">
                  {image ? (
                    // eslint-disable-next-line @next/next/no-img-element -- media from the workspace's store, shown as-is
                    <img className={own.thumb} src={image.url} alt="Image of the post" width={72} height={72} loading="lazy" />
                  ) : null}
                  <div className={own.postBody}>
                    <p className={own.postMeta}>{formatInZone(p.publishedAt, zone)}</p>
                    <p className={own.postText}>{p.content}</p>
                    <ul className={own.targets} aria-label="Where it was published">
                      {p.targets.map((t) => (
                        <li key={t.targetId} style={{ display: 'inline-flex', alignItems: 'center', gap: 6 }}>
                          <PlatformBadge platform={t.platform} />
                          <span>
                            {t.permalink ? (
                              <a className={own.link} href={t.permalink} target="_blank" rel="noopener noreferrer">
                                {label(t.platform)} · {t.accountName}
                              </a>
                            ) : (
                              `${label(t.platform)} · ${t.accountName}`
                            )}{' '}
                            · engagement {formatCount(t.engagement)}
                          </span>
                        </li>
                      ))}
                    </ul>
                  </div>
                </li>
              );
            })}
          </ul>
        )}
      </section>
      <p className={styles.footer}>
        This private, read-only report was sent to you by {data.brand.name}. {ENGAGEMENT_NOTE}
      </p>
    </ClientPage>
  );
}
