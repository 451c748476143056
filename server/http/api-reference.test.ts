// The API reference page: no login, the live document's address, the renderer from Herald
// (a CSP that allows no other origin), the installed renderer's bundle with the mount.
import { describe, expect, it } from 'vitest';
import { handleApiReferencePage, handleApiReferenceRenderer } from './api-reference';

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

  it('serves the installed renderer (a dependency: its whole bundle) with the mount at its end', async () => {
    const res = await handleApiReferenceRenderer();
    const js = await res.text();
    expect(res.status).toBe(200);
    expect(js.length).toBeGreaterThan(500_000);
    expect(js.trimEnd().endsWith('})();')).toBe(true);
    expect(js).toContain('createApiReference');
  });
});
