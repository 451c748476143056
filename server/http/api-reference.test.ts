// The API reference page: no login, the live document's address, the renderer from Herald
// (a CSP that allows no other origin), the installed renderer's bundle with the mount, and
// only the reference Herald configures (no web fonts, none of the hosted-service controls).
import { describe, expect, it } from 'vitest';
import { handleApiReferencePage, handleApiReferenceRenderer, MOUNT_ELEMENT_ID, RENDERER_CONFIGURATION } from './api-reference';

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

  it('mounts one reference, configured without web fonts or hosted-service controls', async () => {
    const js = await (await handleApiReferenceRenderer()).text();
    const html = await handleApiReferencePage().text();
    // The bundle's HTML API mounts a reference of its own, with its defaults, on an element of
    // the id it looks up, or one carrying a data-spec attribute: the page offers neither.
    const hooks = [...js.matchAll(/getElementById\(`([^`]+)`\)/g)].map((m) => m[1]!);
    expect(hooks).toContain('api-reference');
    for (const id of hooks) expect(html, id).not.toContain(`id="${id}"`);
    expect(html).not.toMatch(/data-spec|data-configuration/);
    expect(html).toContain(`<div id="${MOUNT_ELEMENT_ID}" data-url=`);
    // The default fonts are on the renderer's own site, behind the option the mount turns off.
    expect(js).toMatch(/fonts\.scalar\.com/);
    expect(RENDERER_CONFIGURATION).toMatchObject({
      withDefaultFonts: false,
      telemetry: false,
      hideClientButton: true,
      showDeveloperTools: 'never',
      agent: { disabled: true },
      mcp: { disabled: true },
    });
    expect(js.slice(js.lastIndexOf(';(function () {'))).toContain(JSON.stringify(RENDERER_CONFIGURATION));
  });
});
