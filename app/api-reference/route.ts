// The API reference page, without login (server/http/api-reference.ts).
import { handleApiReferencePage } from '@/server/http/api-reference';

export const dynamic = 'force-dynamic';

export const GET = handleApiReferencePage;
