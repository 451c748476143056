// Prometheus metrics of this instance and of the queue: server/observability/metrics.ts.
import { handleMetrics } from '@/server/observability/metrics';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';
export const GET = handleMetrics;
