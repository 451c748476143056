// A local stand-in of the Vercel Blob API, speaking the request shapes @vercel/blob 2.x sends:
//   PUT  /?pathname=<p>   body = bytes; headers x-content-type, x-vercel-blob-access,
//                         x-allow-overwrite, x-add-random-suffix; Authorization: Bearer <rw or client token>
//   GET  /?url=<url or pathname>            → head (JSON metadata, 404 not_found)
//   POST /delete  { urls: [...] }           → del
// plus the public object host at /objects/<pathname> (GET with Range). Client tokens are
// checked the way the service documents them: HMAC of the payload with the read-write token,
// pathname, expiry, allowed content types and maximum size.
import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface BlobStandIn {
  /** Set VERCEL_BLOB_API_URL to this. */
  apiUrl: string;
  /** Public base URL of stored objects (the adapter's publicBaseUrl). */
  publicBaseUrl: string;
  token: string;
  objects: Map<string, { body: Buffer; contentType: string; uploadedAt: Date }>;
  requests: Array<{ method: string; path: string; headers: IncomingMessage['headers'] }>;
  close(): Promise<void>;
}

interface ClientPayload {
  pathname: string;
  validUntil: number;
  maximumSizeInBytes?: number;
  allowedContentTypes?: string[];
  allowOverwrite?: boolean;
}

function fail(res: ServerResponse, status: number, code: string, message: string) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: { code, message } }));
}

function json(res: ServerResponse, body: unknown) {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of req) parts.push(chunk as Buffer);
  return Buffer.concat(parts);
}

export async function startBlobStandIn(): Promise<BlobStandIn> {
  const storeId = `standin${randomBytes(4).toString('hex')}`;
  const token = `vercel_blob_rw_${storeId}_${randomBytes(12).toString('hex')}`;
  const objects: BlobStandIn['objects'] = new Map();
  const requests: BlobStandIn['requests'] = [];
  let base = '';

  const urlOf = (pathname: string) => `${base}/objects/${pathname}`;
  const pathnameOf = (urlOrPathname: string) => (urlOrPathname.startsWith(`${base}/objects/`) ? urlOrPathname.slice(`${base}/objects/`.length) : urlOrPathname);
  const meta = (pathname: string) => {
    const o = objects.get(pathname)!;
    return {
      url: urlOf(pathname),
      downloadUrl: `${urlOf(pathname)}?download=1`,
      pathname,
      size: o.body.length,
      contentType: o.contentType,
      contentDisposition: 'inline',
      cacheControl: 'public, max-age=2592000',
      uploadedAt: o.uploadedAt.toISOString(),
      etag: `"${o.body.length}"`,
    };
  };

  /** The client-token payload, or a reason to refuse. */
  function authorise(header: string | undefined): { kind: 'rw' } | { kind: 'client'; payload: ClientPayload } | { error: string } {
    const bearer = header?.replace(/^Bearer /, '') ?? '';
    if (bearer === token) return { kind: 'rw' };
    const prefix = `vercel_blob_client_${storeId}_`;
    if (!bearer.startsWith(prefix)) return { error: 'Access denied, please provide a valid token for this resource.' };
    const [signature, payload] = Buffer.from(bearer.slice(prefix.length), 'base64').toString().split('.');
    const expected = createHmac('sha256', token)
      .update(payload ?? '')
      .digest('hex');
    if (signature !== expected) return { error: 'Access denied, please provide a valid token for this resource.' };
    return { kind: 'client', payload: JSON.parse(Buffer.from(payload!, 'base64').toString()) as ClientPayload };
  }

  async function handlePut(req: IncomingMessage, res: ServerResponse, url: URL) {
    const pathname = url.searchParams.get('pathname') ?? '';
    const auth = authorise(req.headers.authorization);
    if ('error' in auth) return fail(res, 403, 'forbidden', auth.error);
    const contentType = String(req.headers['x-content-type'] ?? 'application/octet-stream');
    let allowOverwrite = req.headers['x-allow-overwrite'] === '1';
    let max = Infinity;
    if (auth.kind === 'client') {
      const p = auth.payload;
      if (p.pathname !== pathname) return fail(res, 400, 'bad_request', `The "pathname" ${pathname} does not match the token payload`);
      if (Date.now() > p.validUntil) return fail(res, 400, 'bad_request', 'Token expired');
      if (p.allowedContentTypes && !p.allowedContentTypes.includes(contentType))
        return fail(res, 400, 'bad_request', `contentType ${contentType} is not allowed`);
      max = p.maximumSizeInBytes ?? Infinity;
      allowOverwrite = p.allowOverwrite === true;
    }
    const declared = Number(req.headers['content-length'] ?? NaN);
    if (declared > max) return fail(res, 400, 'bad_request', `File size is too large: the file length cannot be greater than ${max} bytes`);
    const body = await readBody(req);
    if (body.length > max) return fail(res, 400, 'bad_request', `File size is too large: the file length cannot be greater than ${max} bytes`);
    if (objects.has(pathname) && !allowOverwrite)
      return fail(res, 400, 'bad_request', 'This blob already exists, use `allowOverwrite: true` if you want to overwrite it.');
    objects.set(pathname, { body, contentType, uploadedAt: new Date() });
    const m = meta(pathname);
    json(res, { url: m.url, downloadUrl: m.downloadUrl, pathname, contentType, contentDisposition: 'inline', etag: m.etag });
  }

  function serveObject(req: IncomingMessage, res: ServerResponse, pathname: string) {
    const o = objects.get(decodeURIComponent(pathname));
    if (!o) return fail(res, 404, 'not_found', 'The requested blob does not exist');
    const range = /^bytes=(\d+)-(\d*)$/.exec(String(req.headers.range ?? ''));
    if (range) {
      const start = Number(range[1]);
      const end = range[2] ? Math.min(Number(range[2]), o.body.length - 1) : o.body.length - 1;
      if (start >= o.body.length) {
        res.writeHead(416, { 'content-range': `bytes */${o.body.length}` });
        return res.end();
      }
      res.writeHead(206, { 'content-type': o.contentType, 'content-length': end - start + 1, 'content-range': `bytes ${start}-${end}/${o.body.length}` });
      return res.end(o.body.subarray(start, end + 1));
    }
    res.writeHead(200, { 'content-type': o.contentType, 'content-length': o.body.length });
    res.end(o.body);
  }

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', base);
    requests.push({ method: req.method ?? 'GET', path: url.pathname + url.search, headers: req.headers });
    try {
      if (url.pathname.startsWith('/objects/')) return serveObject(req, res, url.pathname.slice('/objects/'.length));
      if (req.method === 'PUT' && url.pathname === '/') return await handlePut(req, res, url);
      const auth = authorise(req.headers.authorization);
      if ('error' in auth || auth.kind !== 'rw') return fail(res, 403, 'forbidden', 'Access denied, please provide a valid token for this resource.');
      if (req.method === 'GET' && url.pathname === '/' && url.searchParams.has('url')) {
        const pathname = pathnameOf(url.searchParams.get('url')!);
        return objects.has(pathname) ? json(res, meta(pathname)) : fail(res, 404, 'not_found', 'The requested blob does not exist');
      }
      if (req.method === 'POST' && url.pathname === '/delete') {
        const { urls } = JSON.parse((await readBody(req)).toString()) as { urls: string[] };
        for (const u of urls) objects.delete(pathnameOf(u));
        return json(res, {});
      }
      fail(res, 400, 'bad_request', `Unknown route ${req.method} ${url.pathname}`);
    } catch (e) {
      fail(res, 400, 'bad_request', String(e));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    apiUrl: base,
    publicBaseUrl: `${base}/objects`,
    token,
    objects,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
