// One contract, both adapters: the local disk store (behind its real HTTP routes) and Vercel
// Blob (through @vercel/blob, against a local stand-in of the Blob API). Real bytes, real PUTs.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { db } from '@/server/db/client';
import { AppError } from '@/server/errors/app-error';
import { startTestServer, type TestServer } from '@/server/testing/api-server';
import { createWorkspace } from '@/server/testing/fixtures';
import { handleMediaRoutes } from '../http';
import { storageKey, type AcceptedContentType } from '../media-rules';
import { startBlobStandIn, type BlobStandIn } from '../testing/blob-api-stand-in';
import { makePng } from '../testing/sample-images';
import { BodyLengthError, LocalDiskStorage, ObjectNotFoundError, setMediaStorageForTests, VercelBlobStorage, type MediaStorage } from './index';

let server: TestServer;
let standIn: BlobStandIn;
let workspaceId: string;
let dir: string;
let deadApiUrl: string;

async function closedPortUrl(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

beforeAll(async () => {
  server = await startTestServer({ '/media': handleMediaRoutes });
  standIn = await startBlobStandIn();
  // @vercel/blob reads these itself; no retries keeps the unreachable case fast.
  vi.stubEnv('VERCEL_BLOB_API_URL', standIn.apiUrl);
  vi.stubEnv('VERCEL_BLOB_RETRIES', '0');
  workspaceId = (await createWorkspace()).id;
  dir = mkdtempSync(path.join(os.tmpdir(), 'herald-media-contract-'));
  deadApiUrl = await closedPortUrl();
});

afterAll(async () => {
  vi.unstubAllEnvs();
  setMediaStorageForTests(undefined);
  await server.close();
  await standIn.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Adapter {
  name: string;
  make(): MediaStorage;
  /** The same adapter with its store out of reach. */
  unreachable(): { storage: MediaStorage; restore(): void };
  /** Whether a short body is refused by the PUT itself (otherwise /complete catches it). */
  exactLengthAtPut: boolean;
}

const adapters: Adapter[] = [
  {
    name: 'local disk store',
    make: () => new LocalDiskStorage({ root: path.join(dir, 'blobs'), baseUrl: server.url, secret: 'contract-secret' }),
    unreachable: () => {
      const file = path.join(dir, 'not-a-directory');
      writeFileSync(file, 'x');
      return { storage: new LocalDiskStorage({ root: path.join(file, 'blobs'), baseUrl: server.url, secret: 'contract-secret' }), restore: () => undefined };
    },
    exactLengthAtPut: true,
  },
  {
    name: 'Vercel Blob (local stand-in of the Blob API)',
    make: () => new VercelBlobStorage({ token: standIn.token, publicBaseUrl: standIn.publicBaseUrl, timeoutMs: 2_000 }),
    unreachable: () => {
      vi.stubEnv('VERCEL_BLOB_API_URL', deadApiUrl);
      return {
        storage: new VercelBlobStorage({ token: standIn.token, publicBaseUrl: deadApiUrl, timeoutMs: 2_000 }),
        restore: () => void vi.stubEnv('VERCEL_BLOB_API_URL', standIn.apiUrl),
      };
    },
    exactLengthAtPut: false,
  },
];

/** A key of a fresh asset awaiting its upload (the local upload route checks the asset). */
async function freshKey(contentType: AcceptedContentType = 'image/png', bytes = 1): Promise<string> {
  const id = randomUUID();
  const key = storageKey(workspaceId, id, contentType);
  await db.mediaAsset.create({
    data: { id, workspaceId, name: 'contract-object', kind: contentType.startsWith('image/') ? 'image' : 'video', contentType, bytes, storageKey: key },
  });
  return key;
}

async function collect(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of stream) parts.push(chunk as Buffer);
  return Buffer.concat(parts);
}

/** PUTs to a presigned target; fetch sets Content-Length from the body itself. */
function putTo(upload: { url: string; headers: Record<string, string> }, body: Buffer, change: (h: Record<string, string>) => void = () => undefined) {
  const headers = { ...upload.headers };
  delete headers['Content-Length'];
  change(headers);
  return fetch(upload.url, { method: 'PUT', headers, body: new Uint8Array(body) });
}

const inAnHour = () => new Date(Date.now() + 3_600_000);

async function unavailable(promise: Promise<unknown>): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe('MEDIA_STORAGE_UNAVAILABLE');
}

describe.each(adapters)('$name', (adapter) => {
  let storage: MediaStorage;
  beforeEach(() => {
    storage = adapter.make();
    setMediaStorageForTests(storage);
  });

  it('is available', async () => {
    await expect(storage.ensureAvailable()).resolves.toBeUndefined();
  });

  it('stores the bytes of a presigned PUT; head, read and the public URL give them back', async () => {
    const png = makePng(40, 30);
    const key = await freshKey('image/png', png.length);
    const upload = await storage.presignUpload({ key, contentType: 'image/png', bytes: png.length, expiresAt: inAnHour() });
    expect(upload.method).toBe('PUT');
    expect(upload.headers).toMatchObject({ 'Content-Type': 'image/png', 'Content-Length': String(png.length) });
    expect(await storage.head(key)).toBeNull();

    const res = await putTo(upload, png);
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await storage.head(key)).toEqual({ bytes: png.length, contentType: 'image/png' });
    expect((await collect(await storage.read(key))).equals(png)).toBe(true);

    const served = await fetch(storage.publicUrl(key));
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer()).equals(png)).toBe(true);
  });

  it('reads from an offset and up to an end', async () => {
    const key = await freshKey();
    const body = Buffer.from('0123456789'.repeat(1000));
    await storage.put(key, body, { contentType: 'image/png' });
    expect((await collect(await storage.read(key, { start: 9_995 }))).toString()).toBe('56789');
    expect((await collect(await storage.read(key, { start: 3, end: 6 }))).toString()).toBe('3456');
    expect((await collect(await storage.read(key, { start: 10_000 }))).length).toBe(0);
  });

  it('refuses a PUT with another content type, and stores nothing', async () => {
    const png = makePng(2, 2);
    const key = await freshKey('image/png', png.length);
    const upload = await storage.presignUpload({ key, contentType: 'image/png', bytes: png.length, expiresAt: inAnHour() });
    const res = await putTo(upload, png, (h) => {
      for (const name of Object.keys(h)) if (h[name] === 'image/png') h[name] = 'image/gif';
    });
    expect(res.status).toBe(400);
    expect(await storage.head(key)).toBeNull();
  });

  it('refuses a PUT longer than declared, and stores nothing', async () => {
    const key = await freshKey('image/png', 10);
    const upload = await storage.presignUpload({ key, contentType: 'image/png', bytes: 10, expiresAt: inAnHour() });
    const res = await putTo(upload, Buffer.alloc(11, 1));
    expect(res.status).toBe(400);
    expect(await storage.head(key)).toBeNull();
  });

  it('never lets a shorter PUT pass for the declared length', async () => {
    const key = await freshKey('image/png', 10);
    const upload = await storage.presignUpload({ key, contentType: 'image/png', bytes: 10, expiresAt: inAnHour() });
    const res = await putTo(upload, Buffer.alloc(9, 1));
    if (adapter.exactLengthAtPut) {
      expect(res.status).toBe(400);
      expect(await storage.head(key)).toBeNull();
    } else {
      expect((await storage.head(key))?.bytes).toBe(9); // /complete compares and refuses
    }
  });

  it('streams a server-side body into place, whole or not at all', async () => {
    const key = await freshKey();
    const chunks = Array.from({ length: 64 }, (_, i) => Buffer.alloc(16 * 1024, i));
    await storage.put(key, Readable.from(chunks), { contentType: 'image/png' });
    expect((await storage.head(key))?.bytes).toBe(64 * 16 * 1024);

    const failing = await freshKey();
    const boom = new Error('the download broke');
    async function* broken() {
      yield Buffer.alloc(1024);
      throw boom;
    }
    await expect(storage.put(failing, Readable.from(broken()), { contentType: 'image/png' })).rejects.toBe(boom);
    expect(await storage.head(failing)).toBeNull();
  });

  it('refuses a server-side body of another length than required', async () => {
    const key = await freshKey();
    await expect(storage.put(key, Buffer.alloc(5), { contentType: 'image/png', bytes: 6 })).rejects.toBeInstanceOf(BodyLengthError);
    await expect(storage.put(key, Buffer.alloc(7), { contentType: 'image/png', bytes: 6 })).rejects.toBeInstanceOf(BodyLengthError);
    expect(await storage.head(key)).toBeNull();
    await storage.put(key, Buffer.alloc(6), { contentType: 'image/png', bytes: 6 });
    expect((await storage.head(key))?.bytes).toBe(6);
  });

  it('deletes objects; deleting a missing one is fine', async () => {
    const key = await freshKey();
    await storage.put(key, Buffer.from('bytes'), { contentType: 'image/png' });
    await storage.delete(key);
    expect(await storage.head(key)).toBeNull();
    await expect(storage.read(key)).rejects.toBeInstanceOf(ObjectNotFoundError);
    expect((await fetch(storage.publicUrl(key))).status).toBe(404);
    await storage.delete(key);
  });

  it('answers MEDIA_STORAGE_UNAVAILABLE when the store cannot be reached', async () => {
    const { storage: out, restore } = adapter.unreachable();
    try {
      const key = await freshKey();
      await unavailable(out.ensureAvailable());
      await unavailable(out.presignUpload({ key, contentType: 'image/png', bytes: 10, expiresAt: inAnHour() }));
      await unavailable(out.put(key, Buffer.from('x'), { contentType: 'image/png' }));
    } finally {
      restore();
    }
  });
});
