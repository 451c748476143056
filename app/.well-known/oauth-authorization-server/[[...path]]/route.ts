// OAuth authorization-server metadata (RFC 8414) for assistant clients: server/oauth.
import { handleAuthorizationServerMetadata, handleOAuthPreflight } from '@/server/oauth/http';

export const dynamic = 'force-dynamic';
export const GET = handleAuthorizationServerMetadata;
export const OPTIONS = handleOAuthPreflight;
