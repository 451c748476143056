// The contract document: served without a key, version 0.1.0, API key security scheme,
// every route with its success status and error responses, and it passes a linter.
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

describe('GET /public/v1/openapi.json', () => {
  it('describes the contract from the routers', async () => {
    const doc = await fetchDocument();
    expect(doc.info.version).toBe('0.1.0');
    expect(doc.components.securitySchemes.ApiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'Authorization' });
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
    expect(output, output).toMatch(/Woohoo! Your API description is valid|validated with warnings|is valid/);
    expect('code' in result ? result.code : 0, output).toBe(0);
  }, 120_000);
});
