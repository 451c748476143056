import { CrawlSites } from '../_components/insights/crawl-sites';
import { staffCaller } from '../_lib/server-caller';

export default async function CrawlPage() {
  const caller = await staffCaller();
  return <CrawlSites initial={await caller.crawl.sites().catch(() => null)} />;
}
