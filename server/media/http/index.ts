// The local store's two HTTP routes. The app's route files (app/media/…) export these
// handlers; tests mount handleMediaRoutes on a real HTTP server at /media.
import { FILES_PREFIX, handleMediaFile } from './serve-file';
import { handleMediaUpload, UPLOAD_PREFIX } from './accept-upload';

export { handleMediaFile, handleMediaUpload };

export function handleMediaRoutes(req: Request): Promise<Response> {
  const { pathname } = new URL(req.url);
  if (pathname.startsWith(FILES_PREFIX)) return handleMediaFile(req);
  if (pathname.startsWith(UPLOAD_PREFIX)) return handleMediaUpload(req);
  return Promise.resolve(Response.json({ error: { code: 'ROUTE_NOT_FOUND', message: 'No route at this method and path' } }, { status: 404 }));
}
