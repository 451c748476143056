// OAuth token endpoint: an authorization code for an assistant connection's key: server/oauth.
import { handleOAuthPreflight, handleToken } from '@/server/oauth/http';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';
export const POST = handleToken;
export const OPTIONS = handleOAuthPreflight;
