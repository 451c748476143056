// Local websites for the crawler's tests and benchmark: one HTTPS server answering for any
// host under `.site.test` (a wildcard certificate, simulated DNS to 127.0.0.1), pages set per
// host and path by the test, optional latency, and a record of every request (host, path,
// user agent, arrival order). The crawler reaches it through the guarded outbound client.
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { createOutboundClient, type OutboundClient, type Resolver } from '@/server/outbound';
import { createSelfSignedCert } from '@/server/testing/self-signed-cert';

export interface SitePage {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  /** Never answer (the crawler's deadline decides). */
  hang?: boolean;
}

export interface SiteRequest {
  host: string;
  path: string;
  userAgent: string | undefined;
  /** performance.now() when the request arrived (benchmarks measure gaps with it; tests do not). */
  arrivedAt: number;
}

export interface TestSite {
  port: number;
  cert: string;
  /** `https://<host>:<port>` */
  origin(host: string): string;
  /** Sets what `host` answers at `path` (a later call replaces it); unset paths answer 404. */
  set(host: string, path: string, page: SitePage | string): void;
  requests: SiteRequest[];
  /** A guarded client trusting this server, resolving `*.site.test` (except `nxdomain*`) to 127.0.0.1. */
  client(): OutboundClient;
  close(): Promise<void>;
}

export const siteResolver: Resolver = async (hostname) => {
  if (hostname.endsWith('.site.test') && !hostname.startsWith('nxdomain')) return [{ address: '127.0.0.1', family: 4 }];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
};

export async function startTestSite(opts: { latencyMs?: number } = {}): Promise<TestSite> {
  const tls = createSelfSignedCert('herald-test-site', ['DNS:*.site.test', 'DNS:site.test', 'IP:127.0.0.1']);
  tls.remove();
  const pages = new Map<string, SitePage>();
  const requests: SiteRequest[] = [];
  const clients: OutboundClient[] = [];
  const server = https.createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '');
    const path = new URL(req.url ?? '/', 'https://x').pathname;
    requests.push({ host, path, userAgent: req.headers['user-agent'], arrivedAt: performance.now() });
    const page = pages.get(`${host}${path}`);
    const answer = () => {
      if (!page) {
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('not found');
        return;
      }
      if (page.hang) return;
      res.writeHead(page.status ?? 200, { 'content-type': 'text/html; charset=utf-8', ...page.headers });
      res.end(page.body ?? '');
    };
    if (opts.latencyMs) setTimeout(answer, opts.latencyMs);
    else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    cert: tls.cert,
    origin: (host) => `https://${host}:${port}`,
    set: (host, path, page) => pages.set(`${host}${path}`, typeof page === 'string' ? { body: page } : page),
    requests,
    client: () => {
      const client = createOutboundClient({ ca: tls.cert, allowHosts: ['127.0.0.1'], resolve: siteResolver });
      clients.push(client);
      return client;
    },
    close: async () => {
      await Promise.all(clients.map((c) => c.close()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A landing page as real sites write them: head tags, navigation, an article. */
export function landingPage(p: { title: string; description?: string; canonical?: string; h1: string; h2?: string[]; paragraphs: string[] }): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>${p.title}</title>
  ${p.description ? `<meta name="description" content="${p.description}">` : ''}
  ${p.canonical ? `<link rel="canonical" href="${p.canonical}">` : ''}
  <script>window.dataLayer = [];</script>
  <style>body { font-family: sans-serif }</style>
</head>
<body>
  <header><nav><a href="/">Home</a> <a href="/pricing">Pricing</a> <a href="/blog">Blog</a></nav></header>
  <main>
    <article>
      <h1>${p.h1}</h1>
      ${(p.h2 ?? []).map((h) => `<h2>${h}</h2>`).join('\n      ')}
      ${p.paragraphs.map((t) => `<p>${t}</p>`).join('\n      ')}
    </article>
  </main>
  <footer><p>© Example Co. All rights reserved.</p></footer>
</body>
</html>`;
}
