import { CrawlPageTimeline } from '../../../_components/insights/crawl-timeline';

export default async function CrawlPageView({ params, searchParams }: { params: Promise<{ pageId: string }>; searchParams: Promise<{ site?: string }> }) {
  const [{ pageId }, { site }] = await Promise.all([params, searchParams]);
  return <CrawlPageTimeline pageId={pageId} siteId={site ?? null} />;
}
