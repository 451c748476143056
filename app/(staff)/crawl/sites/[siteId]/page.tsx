import { CrawlSitePages } from '../../../_components/insights/crawl-pages';

export default async function CrawlSitePage({ params }: { params: Promise<{ siteId: string }> }) {
  const { siteId } = await params;
  return <CrawlSitePages siteId={siteId} />;
}
