// The API reference page: no login, the live document's address, the renderer from Herald
// (a CSP that allows no other origin), and a plain answer when the renderer is not installed.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { handleApiReferencePage, handleApiReferenceRenderer, RENDERER_PACKAGE } from './api-reference';

const installed = (() => {
  try {
    createRequire(import.meta.url).resolve(`${RENDERER_PACKAGE}/package.json`);
    return true;
  } catch {
    return false;
  }
})();

describe('the API reference', () => {
  it('is a page that loads the live document and the renderer from Herald only', async () => {
    const res = handleApiReferencePage();
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('data-url="/public/v1/openapi.json"');
    expect(html).toContain('<script src="/api-reference/renderer.js"></script>');
    expect(html).not.toMatch(/https?:\/\//);
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toMatch(/https?:/);
  });

  it('serves the installed renderer with the mount at its end, or says it is missing', async () => {
    const res = await handleApiReferenceRenderer();
    const js = await res.text();
    expect(js).toContain('createApiReference');
    expect(res.status).toBe(installed ? 200 : 503);
  });
});
