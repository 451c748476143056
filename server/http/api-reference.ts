// The API reference: a page without login that renders the live contract document
// (/public/v1/openapi.json) with Scalar's API reference renderer. The renderer's standalone
// bundle is served by Herald from the installed package, never from a CDN, so the page works
// offline and behind a firewall; its Content-Security-Policy keeps it from reaching anywhere
// but Herald itself, and the renderer is configured to ask for nothing elsewhere (no web
// fonts, no telemetry, none of its hosted-service controls). The bundle carries a few lines of
// our own at its end that mount the reference, so the page needs no inline script.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { createApiReference } from '@scalar/api-reference';
import { PUBLIC_API_PREFIX } from '@/server/shared/paths';

export const API_REFERENCE_PATH = '/api-reference';
export const RENDERER_PATH = `${API_REFERENCE_PATH}/renderer.js`;
/** The renderer package and its self-contained browser bundle. */
export const RENDERER_PACKAGE = '@scalar/api-reference';
const RENDERER_BUNDLE = 'dist/browser/standalone.js';
/**
 * Where the page mounts the reference. Not `api-reference`: on load, the standalone bundle
 * mounts a reference of its own, with its default configuration, on an element of that id
 * (its HTML API), and that one loads the renderer's web fonts from its own site and shows its
 * hosted-service controls beside the reference Herald configures below.
 */
export const MOUNT_ELEMENT_ID = 'herald-api-reference';

/**
 * The renderer's options (typed by the installed package, so a renamed option fails the type
 * check). Each one keeps the page from reaching another origin, or removes a control that
 * only works with the renderer's hosted services; several of those show only on localhost.
 */
export const RENDERER_CONFIGURATION = {
  // The default fonts are @font-face rules on fonts.scalar.com; the system fonts stand in.
  withDefaultFonts: false,
  telemetry: false,
  // "Open API Client": a link that imports the document into client.scalar.com.
  hideClientButton: true,
  // The toolbar above the reference (Configure, Share, Deploy): the renderer's registry and dashboard.
  showDeveloperTools: 'never',
  // "Ask AI": the renderer's hosted agent.
  agent: { disabled: true },
  // "Generate MCP" / "Connect MCP": the renderer's hosted MCP generator. Herald's own tool
  // endpoint is at /public/v1/mcp (docs/mcp.md).
  mcp: { disabled: true },
} as const satisfies Parameters<typeof createApiReference>[1];

const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const MOUNT = `
;(function () {
  var el = document.getElementById(${JSON.stringify(MOUNT_ELEMENT_ID)});
  if (!el) return;
  if (!window.Scalar || typeof window.Scalar.createApiReference !== 'function') {
    el.textContent = 'The API reference renderer did not load. The contract document is at ' + el.dataset.url + '.';
    return;
  }
  window.Scalar.createApiReference(el, Object.assign({ url: el.dataset.url }, ${JSON.stringify(RENDERER_CONFIGURATION)}));
})();
`;

function page(): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Herald API reference</title>
    <meta name="description" content="Every operation, parameter, error and webhook of Herald's public API v1, with examples.">
    <link rel="icon" href="/icon.svg" type="image/svg+xml">
  </head>
  <body>
    <noscript>The reference needs JavaScript. The contract document itself is at <a href="${PUBLIC_API_PREFIX}/openapi.json">${PUBLIC_API_PREFIX}/openapi.json</a>.</noscript>
    <div id="${MOUNT_ELEMENT_ID}" data-url="${PUBLIC_API_PREFIX}/openapi.json"></div>
    <script src="${RENDERER_PATH}"></script>
  </body>
</html>
`;
}

/** GET /api-reference: the page. */
export function handleApiReferencePage(): Response {
  return new Response(page(), {
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': CSP,
      'cache-control': 'public, max-age=300',
      'x-content-type-options': 'nosniff',
      // What the proxy gives every other page (server/http/security-headers.ts); this one skips it.
      'x-frame-options': 'DENY',
      'referrer-policy': 'strict-origin',
    },
  });
}

let bundle: Promise<string | null> | undefined;
async function readBundle(): Promise<string | null> {
  // The package exports neither its package.json nor the browser bundle, so the file is found
  // beside the app's node_modules (what the standalone image traces, next.config.mjs), or from
  // the package's main entry (dist/index.js) up to its root.
  const candidates = [path.join(process.cwd(), 'node_modules', RENDERER_PACKAGE, RENDERER_BUNDLE)];
  try {
    const main = createRequire(path.join(process.cwd(), 'package.json')).resolve(RENDERER_PACKAGE);
    candidates.push(path.join(path.dirname(main), '..', RENDERER_BUNDLE));
  } catch {
    // not resolvable from here: the first candidate decides
  }
  for (const file of candidates) {
    try {
      return (await readFile(file, 'utf8')) + MOUNT;
    } catch {
      // try the next
    }
  }
  return null;
}

/** GET /api-reference/renderer.js: the installed renderer, then the mount. */
export async function handleApiReferenceRenderer(): Promise<Response> {
  bundle ??= readBundle();
  const js = await bundle;
  if (js === null) {
    bundle = undefined; // an install while running is picked up on the next request
    return new Response(`/* ${RENDERER_PACKAGE} is not installed on this server. */\n${MOUNT}`, {
      status: 503,
      headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' },
    });
  }
  return new Response(js, {
    headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=3600', 'x-content-type-options': 'nosniff' },
  });
}
