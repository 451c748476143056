// What a client report shows: the post results of the link's range, with the link's brand and
// the workspace it reports on. Read by the page, the JSON route and the PDF alike.
import type { ReportResults } from '@/server/analytics/post-metrics/report-results';
import type { ResponseTimes } from '@/server/inbox/response-times';

export interface ReportPageData extends ReportResults {
  /** The times in the report are in the workspace's zone. */
  workspace: { id: string; name: string; timeZone: string };
  brand: { name: string; logoUrl: string | null };
  title: string;
  expiresAt: string;
  generatedAt: string;
  /** How quickly comments written in the range were answered (the inbox's response times). */
  responseTimes: ResponseTimes;
}
