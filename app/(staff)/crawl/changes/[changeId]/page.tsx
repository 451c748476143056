import { CrawlChange } from '../../../_components/insights/crawl-change';

export default async function CrawlChangePage({ params }: { params: Promise<{ changeId: string }> }) {
  const { changeId } = await params;
  return <CrawlChange changeId={changeId} />;
}
