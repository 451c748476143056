// OAuth token revocation (RFC 7009) for assistant connections: server/oauth.
import { handleOAuthPreflight, handleRevoke } from '@/server/oauth/http';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';
export const POST = handleRevoke;
export const OPTIONS = handleOAuthPreflight;
