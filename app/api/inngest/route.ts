// Inngest calls this route to run Herald's functions (production, when configured).
export { GET, POST, PUT } from '@/inngest/serve';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
