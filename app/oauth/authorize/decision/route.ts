// The member's answer on the consent page: server/oauth.
import { handleDecision } from '@/server/oauth/http';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';
export const POST = handleDecision;
