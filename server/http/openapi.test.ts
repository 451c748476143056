// The contract document: served without a key, version 0.1.0, the API key as an HTTP bearer scheme,
// every route with its success status and error responses, every schema and property
// described, and it passes a linter.
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { GET } from '@/app/public/v1/openapi.json/route';

const run = promisify(execFile);

async function fetchDocument(): Promise<any> {
  const res = await GET(new Request('http://localhost/public/v1/openapi.json'));
  expect(res.status).toBe(200);
  return res.json();
}

/**
 * Every property of a schema, with where it sits, into arrays, maps and alternatives. A
 * property that is a `$ref` is not entered: its component is walked itself.
 */
function* properties(schema: any, at: string): Generator<[string, any]> {
  if (!schema || typeof schema !== 'object' || schema.$ref) return;
  for (const [name, prop] of Object.entries<any>(schema.properties ?? {})) {
    yield [`${at}.${name}`, prop];
    yield* properties(prop, `${at}.${name}`);
  }
  for (const key of ['items', 'additionalProperties'] as const) yield* properties(schema[key], `${at}[]`);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) for (const s of schema[key] ?? []) yield* properties(s, at);
}

/** Every schema of the document: components, inline request and response bodies, webhooks. */
function* schemasOf(doc: any): Generator<[string, any]> {
  for (const [name, schema] of Object.entries<any>(doc.components.schemas)) yield [`#/components/schemas/${name}`, schema];
  for (const [path, ops] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(ops)) {
      for (const media of Object.values<any>(op.requestBody?.content ?? {})) yield [`${method.toUpperCase()} ${path} body`, media.schema];
      for (const [status, r] of Object.entries<any>(op.responses))
        for (const media of Object.values<any>(r.content ?? {})) yield [`${method.toUpperCase()} ${path} ${status}`, media.schema];
    }
  }
  for (const [name, hook] of Object.entries<any>(doc.webhooks ?? {}))
    for (const media of Object.values<any>(hook.post?.requestBody?.content ?? {})) yield [`webhook ${name}`, media.schema];
}

describe('GET /public/v1/openapi.json', () => {
  it('describes the contract from the routers', async () => {
    const doc = await fetchDocument();
    expect(doc.info.version).toBe('0.1.0');
    expect(doc.components.securitySchemes).toEqual({
      ApiKey: { type: 'http', scheme: 'bearer', bearerFormat: 'sk_live_…', description: expect.stringContaining('Bearer sk_live_') },
    });
    expect(doc.security).toEqual([{ ApiKey: [] }]);
    expect(doc.paths['/workspaces'].post.responses['201']).toBeDefined();
    expect(doc.paths['/workspaces'].post.responses['200']).toBeUndefined();
    expect(doc.paths['/workspaces/{id}'].delete.responses['204'].content).toBeUndefined();
    const notFound = doc.paths['/workspaces/{id}'].get.responses['404'];
    expect(notFound.description).toContain('WORKSPACE_NOT_FOUND');
    expect(doc.paths['/connections'].get.responses['401'].content['application/json'].schema.$ref).toBe('#/components/schemas/FlatError');
    expect(doc.paths['/connections'].get.responses['429'].headers['Retry-After']).toBeDefined();
    const params = doc.paths['/workspaces'].post.parameters.map((p: any) => p.name);
    expect(params).toContain('Idempotency-Key');
    expect(params).not.toContain('X-Service-Workspace');
    expect(doc.paths['/connections'].get.parameters.map((p: any) => p.name)).toContain('X-Service-Workspace');
  });

  it('lets every route answer SERVICE_UNAVAILABLE (503) with Retry-After', async () => {
    const doc = await fetchDocument();
    for (const [path, ops] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(ops)) {
        const unavailable = op.responses['503'];
        expect(unavailable?.description, `${method} ${path}`).toContain('SERVICE_UNAVAILABLE');
        expect(unavailable.headers['Retry-After'], `${method} ${path}`).toBeDefined();
      }
    }
  });

  it('lets every route answer what Herald’s server says to requests it cannot read: 400, 408 and 431 in the flat shape', async () => {
    const doc = await fetchDocument();
    const schemaOf = (r: any) => JSON.stringify(r?.content?.['application/json']?.schema ?? null);
    for (const [path, ops] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(ops)) {
        const where = `${method} ${path}`;
        expect(op.responses['400']?.description, where).toContain('MALFORMED_REQUEST');
        expect(schemaOf(op.responses['400']), where).toContain('#/components/schemas/ValidationError');
        expect(op.responses['408']?.description, where).toMatch(/^REQUEST_TIMEOUT: /);
        expect(op.responses['431']?.description, where).toMatch(/^REQUEST_HEADER_FIELDS_TOO_LARGE: /);
        for (const status of ['408', '431']) expect(schemaOf(op.responses[status]), `${where} ${status}`).toBe('{"$ref":"#/components/schemas/FlatError"}');
      }
    }
    expect(doc.components.schemas.ValidationError.properties.message.type).toBe('array');
  });

  it('passes the Redocly linter with no errors', async () => {
    const doc = await fetchDocument();
    const dir = mkdtempSync(path.join(tmpdir(), 'herald-openapi-'));
    const file = path.join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(doc));
    const bin = path.resolve('node_modules/@redocly/cli/bin/cli.js');
    const result = await run(process.execPath, [bin, 'lint', file, '--config', path.resolve('redocly.yaml'), '--format', 'stylish'], {
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    }).catch((err: { stdout: string; stderr: string; code: number }) => err);
    const output = `${result.stdout}\n${result.stderr}`;
    expect(output, output).toMatch(/Woohoo! Your API description is valid/);
    expect(output, output).not.toMatch(/You have \d+ warnings?/);
    expect('code' in result ? result.code : 0, output).toBe(0);
  }, 120_000);

  it('explains itself: descriptions, tags, contact, license, a server that is not a guess', async () => {
    const doc = await fetchDocument();
    expect(doc.info.contact.name).toBeTruthy();
    expect(doc.info.license.name).toBeTruthy();
    expect(doc.servers[0].url).not.toMatch(/localhost/);
    const tags = new Set(doc.tags.map((t: any) => t.name));
    for (const [path, ops] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(ops)) {
        const where = `${method} ${path}`;
        expect(op.description?.length, where).toBeGreaterThan(40);
        expect(op.description, where).not.toBe(op.summary);
        for (const tag of op.tags) expect(tags.has(tag), `${where} ${tag}`).toBe(true);
        for (const p of op.parameters ?? []) expect(p.description, `${where} ${p.name}`).toBeTruthy();
        for (const [status, r] of Object.entries<any>(op.responses)) if (Number(status) < 300) expect(r.description, where).not.toBe('Successful response');
      }
    }
    expect(Object.keys(doc.components.schemas).filter((n) => n.startsWith('error.'))).toEqual([]);
  });

  it('describes every schema and every property of it, where it is defined', async () => {
    const doc = await fetchDocument();
    const component = (ref: string) => doc.components.schemas[ref.replace('#/components/schemas/', '')];
    const undescribed: string[] = [];
    let seen = 0;
    for (const [where, schema] of schemasOf(doc)) {
      for (const [at, prop] of properties(schema, where)) {
        seen++;
        // A reference reads its component's description unless it says more itself.
        const description = prop.description ?? (prop.$ref ? component(prop.$ref)?.description : undefined);
        if (!String(description ?? '').trim()) undescribed.push(at);
      }
    }
    expect(seen).toBeGreaterThan(1000);
    expect(undescribed, 'properties without a description (.describe() on the zod schema in server/<domain>/*.schemas.ts)').toEqual([]);
    const components = Object.entries<any>(doc.components.schemas).filter(([, s]) => !s.description);
    expect(
      components.map(([name]) => name),
      'components without a description (.meta({ id, description }))',
    ).toEqual([]);
  });

  it('lists each route’s errors in its own words, and none it cannot answer', async () => {
    const doc = await fetchDocument();
    const retry = doc.paths['/posts/{id}/retry'].post.responses['409'].description;
    expect(retry).toContain('APPROVAL_REQUIRED');
    expect(retry).toContain('no failed targets to retry');
    expect(retry).not.toContain('publishing, published, partially published or cancelled');
    // Routes that read no body never answer 413 or 415.
    for (const [path, method] of [
      ['/posts/{id}/publish', 'post'],
      ['/posts/{id}', 'delete'],
      ['/webhooks/{id}/test', 'post'],
    ] as const) {
      expect(doc.paths[path][method].responses['413'], `${method} ${path}`).toBeUndefined();
      expect(doc.paths[path][method].responses['415'], `${method} ${path}`).toBeUndefined();
    }
    expect(doc.paths['/posts'].post.responses['415']).toBeDefined();
    // VALIDATION_FAILED is described per route, not one route's text everywhere.
    const texts = new Set<string>();
    for (const ops of Object.values<any>(doc.paths))
      for (const op of Object.values<any>(ops)) {
        const part = (op.responses['400']?.description ?? '').split(' | ').find((p: string) => p.startsWith('VALIDATION_FAILED'));
        if (part) texts.add(part);
      }
    expect(texts.size).toBeGreaterThan(5);
    expect(doc.paths['/workspaces'].post.responses['409'].description).toContain('slug is taken');
    expect(doc.paths['/posts'].post.responses['409'].description).not.toContain('VALIDATION_FAILED');
    expect(doc.paths['/webhooks'].post.responses['400'].description).toMatch(/WEBHOOK_URL_REFUSED: .*does not resolve/);
  });

  it('types what clients send: settings per platform, variants and events as enums, time zones as IANA names', async () => {
    const doc = await fetchDocument();
    const body = doc.paths['/posts'].post.requestBody.content['application/json'].schema.properties;
    expect(body.platformSettings.properties.facebook.properties.firstComment.type).toBe('string');
    expect(body.platformSettings.additionalProperties).toBe(false);
    expect(Object.keys(body.variants.properties)).toContain('twitter');
    expect(body.variants.additionalProperties).toBe(false);
    const events = doc.paths['/webhooks'].post.requestBody.content['application/json'].schema.properties.events;
    expect(events.items.enum).toContain('post.published');
    const timeZone = doc.paths['/workspaces'].post.requestBody.content['application/json'].schema.properties.timeZone;
    expect(timeZone.pattern).toBeTruthy();
    expect(timeZone.description).toMatch(/IANA/);
    expect(doc.webhooks['post.published'].post.parameters.map((p: any) => p.name)).toContain('X-Service-Signature');
  });
});
