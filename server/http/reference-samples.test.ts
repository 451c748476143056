// The code samples the API reference shows, made by the renderer's own generator
// (@scalar/blocks, what /api-reference runs) from the live document: every operation's
// default sample sends the key as `Authorization: Bearer sk_live_…`, and the curl sample of a
// read, run by curl itself against Herald, is answered 200.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { DEFAULT_CLIENT, generateCodeSnippet } from '@scalar/blocks/code-example';
import { describe, expect, it } from 'vitest';
import { createWorkspaceWithKey } from '@/server/testing/fixtures';
import { usePublicApi } from '@/server/testing/public-api';
import { buildOpenApiDocument } from './openapi';

const run = promisify(execFile);
const api = usePublicApi();
type Json = Record<string, any>;
const doc = buildOpenApiDocument() as unknown as Json;

/** The sample the reference shows for an operation, with the key a reader typed into its auth field. */
function sample(path: string, method: string, key: string, server: string): string {
  const op = doc.paths[path][method] as Json;
  const schemes = (op.security ?? doc.security).flatMap((requirement: Json) =>
    Object.keys(requirement).map((name) => ({ ...doc.components.securitySchemes[name], 'x-scalar-secret-token': key })),
  );
  return String(
    generateCodeSnippet({
      clientId: DEFAULT_CLIENT,
      customCodeSamples: [],
      operation: op as never,
      method,
      path,
      example: undefined,
      contentType: op.requestBody ? 'application/json' : undefined,
      server: { url: server },
      securitySchemes: schemes,
      // As the reference renders it: optional parameters left out until a reader fills them in.
      defaultDisabledParameters: true,
    }),
  );
}

describe('the API reference’s code samples', () => {
  it('send the key as a bearer token on every operation that needs one', () => {
    expect(DEFAULT_CLIENT).toBe('shell/curl');
    const bare: string[] = [];
    for (const [path, ops] of Object.entries<Json>(doc.paths)) {
      for (const [method, op] of Object.entries<Json>(ops)) {
        if ((op.security ?? doc.security).length === 0) continue;
        const text = sample(path, method, 'sk_live_example', 'https://herald.example.com/public/v1');
        if (!text.includes(`--header 'Authorization: Bearer sk_live_example'`)) bare.push(`${method} ${path}: ${text}`);
      }
    }
    expect(bare).toEqual([]);
  });

  it('a read’s curl sample, run by curl, is answered 200', async () => {
    const { secret } = await createWorkspaceWithKey();
    const text = sample('/connections', 'get', secret, `${api.baseUrl()}/public/v1`);
    expect(text).toMatch(/^curl /);
    const { stdout } = await run('sh', ['-c', `${text} --silent --show-error --output /dev/null --write-out '%{http_code}'`]);
    expect(stdout).toBe('200');
  });
});
