// OAuth dynamic client registration for assistant clients: server/oauth.
import { handleOAuthPreflight, handleRegister } from '@/server/oauth/http';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';
export const POST = handleRegister;
export const OPTIONS = handleOAuthPreflight;
