// Objects of the local media store at stable public URLs (server/media/http/serve-file.ts).
import { handleMediaFile } from '@/server/media/http';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = handleMediaFile;
export const HEAD = handleMediaFile;
