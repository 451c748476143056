// The client report link: a read-only, no-login view of how a managed workspace's posts did
// over the link's range of days (docs/decisions.md → "Post results"). The numbers are read
// when the link is opened, from the same post-results reads as the API.
import { reportResults } from '@/server/analytics/post-metrics/report-results';
import { resolveClientLink } from '@/server/client-links/resolve-client-link';
import { responseTimes } from '@/server/inbox/response-times';
import type { ReportPageData } from './report-data';
import { renderReportPdf } from './report-pdf';

export type { ReportPageData } from './report-data';

export async function readReportPage(token: string): Promise<ReportPageData> {
  const link = await resolveClientLink(token, 'report');
  // Issued report links always carry a range (a database check); a row without one is no report.
  const range = link.report!;
  const [results, times] = await Promise.all([
    reportResults(link.workspace.id, range.from, range.to),
    responseTimes(link.workspace.id, { from: range.from, to: range.to }),
  ]);
  return {
    workspace: link.workspace,
    brand: link.brand,
    title: range.title ?? `Results for ${link.workspace.name}`,
    expiresAt: link.expiresAt.toISOString(),
    generatedAt: new Date().toISOString(),
    responseTimes: times,
    ...results,
  };
}

/** The same report as a PDF: its file name and bytes. */
export async function readReportPdf(token: string): Promise<{ filename: string; bytes: Uint8Array }> {
  const data = await readReportPage(token);
  return { filename: `report-${data.range.from}-to-${data.range.to}.pdf`, bytes: await renderReportPdf(data) };
}
