// Presigned uploads into the local media store (server/media/http/accept-upload.ts).
import { handleMediaUpload } from '@/server/media/http';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const PUT = handleMediaUpload;
