// Readiness and health of this instance: server/runtime/health.ts.
import { handleHealth } from '@/server/runtime/health';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';
export const GET = handleHealth;
