// OAuth protected-resource metadata of the tool endpoint (RFC 9728): server/oauth.
import { handleOAuthPreflight, handleProtectedResourceMetadata } from '@/server/oauth/http';

export const dynamic = 'force-dynamic';
export const GET = handleProtectedResourceMetadata;
export const OPTIONS = handleOAuthPreflight;
