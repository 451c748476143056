// Between Node's http objects and the Web-standard Request/Response the handlers take: the
// bridge Herald's own server (server/runtime/fast-path.ts) and the test servers use, so a
// handler sees the same Request whichever server calls it.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeWebStream } from 'node:stream/web';
import { knownResponse } from './response-bytes';

/** The Node request behind each Request this bridge built with a body (readBodyBytes). */
const nodeSources = new WeakMap<Request, IncomingMessage>();

/**
 * The request as a handler reads it. The body is streamed, not buffered first, so the
 * handlers' own size limits (413) apply as the bytes arrive.
 */
export function toWebRequest(req: IncomingMessage, origin: string): Request {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  // No abort signal: a client that hangs up is seen where it matters, on the response (a
  // stream's cancel, in sendWebResponse); handlers run to the end, as under Next.
  const request = new Request(origin + (req.url ?? '/'), {
    method: req.method,
    headers,
    body: hasBody ? bodyOf(req) : undefined,
    // Node's fetch needs it for a streamed body.
    ...(hasBody ? { duplex: 'half' } : {}),
  } as RequestInit);
  if (hasBody) nodeSources.set(request, req);
  return request;
}

/**
 * A request body's bytes, or null once they pass `limit` (the rest is then drained, never
 * kept). Every handler that reads a body reads it through here (server/http/request-input.ts).
 * A request this bridge built is read from Node's stream itself: the Web stream in between
 * cost some fifteen promises per request, each dearer in a process where Next keeps its
 * async-context stores (docs/performance.md, step 15). Any other Request (a route handler
 * under `next start`, a test) is read from its Web stream, with the same limit.
 */
export async function readBodyBytes(req: Request, limit: number): Promise<Uint8Array | null> {
  const source = nodeSources.get(req);
  if (source && !source.readableDidRead && !req.bodyUsed) return readNodeBody(source, limit);
  if (!req.body) return new Uint8Array(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total);
}

function readNodeBody(source: IncomingMessage, limit: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const done = () => {
      source.off('data', onData);
      source.off('end', onEnd);
      source.off('error', onError);
    };
    const onData = (chunk: Buffer) => {
      total += chunk.byteLength;
      if (total <= limit) return void chunks.push(chunk);
      // Over the limit: stop keeping bytes; Node reads and drops the rest, so the answer
      // arrives and the keep-alive connection stays usable (as bodyOf's cancel does).
      done();
      source.resume();
      resolve(null);
    };
    const onEnd = () => {
      done();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total));
    };
    const onError = (err: Error) => {
      done();
      reject(err);
    };
    source.on('data', onData);
    source.once('end', onEnd);
    source.once('error', onError);
  });
}

/**
 * The request body as a Web stream, read as the handler pulls. When the handler stops early
 * (a body over the size limit: 413), the rest is read and dropped rather than the socket
 * destroyed, so the answer arrives and the keep-alive connection stays usable for the
 * client's next request (Node's request timeout still bounds a body that never ends).
 */
function bodyOf(req: IncomingMessage): ReadableStream<Uint8Array> {
  let cancelled = false;
  let attached = false;
  return new ReadableStream<Uint8Array>(
    {
      // Nothing is read until the handler reads (highWaterMark 0): a body the handler never
      // touches (refused on its declared length) is left to Node, which drops it after the
      // answer and keeps the connection.
      pull(controller) {
        // Already read through readBodyBytes: nothing is left to stream.
        if (req.readableEnded) return controller.close();
        if (!attached) {
          attached = true;
          req.on('data', (chunk: Buffer) => {
            if (cancelled) return;
            controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
            if ((controller.desiredSize ?? 1) <= 0) req.pause();
          });
          req.once('end', () => !cancelled && controller.close());
          req.once('error', (err) => !cancelled && controller.error(err));
        }
        req.resume();
      },
      cancel() {
        cancelled = true;
        req.resume();
      },
    },
    { highWaterMark: 0 },
  );
}

/**
 * Writes a handler's Response. One built by response-bytes.ts goes out as recorded; a body
 * that is already bytes goes out in one write with its Content-Length; a stream (the tool endpoint's event stream) is piped as it comes, and a
 * client that hangs up cancels it.
 */
export async function sendWebResponse(res: ServerResponse, response: Response): Promise<void> {
  res.statusCode = response.status;
  if (response.statusText) res.statusMessage = response.statusText;
  const cookies = response.headers.getSetCookie();
  response.headers.forEach((value, key) => {
    if (key !== 'set-cookie') res.setHeader(key, value);
  });
  if (cookies.length) res.setHeader('set-cookie', cookies);
  // Built by response-bytes.ts: its bytes are at hand, no stream to read back.
  const known = knownResponse(response);
  if (known) return void res.end(known.body ?? undefined);
  if (!response.body) return void res.end();
  // A body of known length (every JSON answer: the handlers send one buffer) in one write.
  if (response.headers.has('content-length')) return void res.end(Buffer.from(await response.arrayBuffer()));
  const body = Readable.fromWeb(response.body as NodeWebStream<Uint8Array>);
  res.on('close', () => body.destroy());
  await new Promise<void>((resolve) => {
    body.once('error', () => {
      res.destroy();
      resolve();
    });
    res.once('close', resolve);
    body.pipe(res);
  });
}
