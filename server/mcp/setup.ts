// GET /public/v1/mcp/setup (no key): ready-to-paste configuration for the common tool
// clients, with this deployment's URL filled in — JSON for programs, a readable page for
// people (Accept: text/html). `?toolsets=publishing,inbox` gives the snippets with those
// toolsets in the URL (server/mcp/toolsets.ts).
import { env } from '@/server/config/env';
import { MCP_PATH } from '@/server/shared/paths';
import { DEFAULT_TOOLSETS, parseToolsets, TOOLSET_DESCRIPTIONS, TOOLSET_NAMES, TOOLSETS_PARAM, type ToolsetName } from '@/server/shared/toolsets';

const KEY_PLACEHOLDER = 'sk_live_…';

export interface SetupSnippet {
  client: string;
  /** Where the snippet goes. */
  where: string;
  format: 'url' | 'json' | 'shell';
  snippet: string;
  /** How the client gets in: it signs in through Herald in the browser (OAuth), or it sends an API key. */
  signIn: 'oauth' | 'key';
}

export function mcpUrl(): string {
  return `${env.baseUrl()}${MCP_PATH}`;
}

/** The endpoint's URL choosing these toolsets; the bare URL for none (the default, or a connection's choice at sign-in). */
export function toolsetsUrl(toolsets: readonly ToolsetName[] | null, url = mcpUrl()): string {
  return toolsets?.length ? `${url}?${TOOLSETS_PARAM}=${toolsets.join(',')}` : url;
}

/** Quoted when a shell would read it otherwise (a space, `$`, or `?` that zsh globs in a URL naming toolsets). */
const shellWord = (a: string) => (/[\s$?&*]/.test(a) ? `'${a}'` : a);

/** How toolsets are chosen, for the setup answers and the Assistant screen. */
export function toolsetChoices() {
  return {
    param: TOOLSETS_PARAM,
    header: 'X-MCP-Toolsets',
    default: [...DEFAULT_TOOLSETS],
    available: TOOLSET_NAMES.map((name) => ({ name, description: TOOLSET_DESCRIPTIONS[name], default: DEFAULT_TOOLSETS.includes(name) })),
  };
}

/**
 * The clients people use, the easiest way first: every client that can sign in by OAuth is
 * given just the URL (the member picks the workspace and what the assistant may do on
 * Herald's consent page; nothing secret sits in a file). Keys remain for clients that need
 * one, read from the environment or a password prompt rather than written in the file.
 */
export function setupSnippets(url = mcpUrl()): SetupSnippet[] {
  const json = (v: unknown) => JSON.stringify(v, null, 2);
  const bridge = ['-y', 'mcp-remote', url, '--header', 'Authorization:Bearer ${HERALD_API_KEY}'];
  return [
    {
      client: 'Claude.ai and Claude Desktop (connector)',
      where: 'Settings → Connectors → Add custom connector: paste the URL, then sign in to Herald when asked',
      format: 'url',
      snippet: url,
      signIn: 'oauth',
    },
    {
      client: 'ChatGPT (connector)',
      where: 'Settings → Apps & Connectors → Create (developer mode): paste the URL, choose OAuth, then sign in to Herald when asked',
      format: 'url',
      snippet: url,
      signIn: 'oauth',
    },
    {
      client: 'Cursor',
      where: '.cursor/mcp.json (or ~/.cursor/mcp.json); Cursor opens Herald’s sign-in the first time a tool is used',
      format: 'json',
      snippet: json({ mcpServers: { herald: { url } } }),
      signIn: 'oauth',
    },
    {
      client: 'Claude Code',
      where: 'a terminal, then /mcp in Claude Code to sign in',
      format: 'shell',
      snippet: `claude mcp add --transport http herald ${shellWord(url)}`,
      signIn: 'oauth',
    },
    {
      client: 'VS Code',
      where: '.vscode/mcp.json (VS Code asks for the key once and keeps it in its secret storage)',
      format: 'json',
      snippet: json({
        inputs: [{ type: 'promptString', id: 'herald-key', description: 'Herald API key (sk_live_…)', password: true }],
        servers: { herald: { type: 'http', url, headers: { Authorization: 'Bearer ${input:herald-key}' } } },
      }),
      signIn: 'key',
    },
    {
      client: 'Claude Desktop (config file, through mcp-remote)',
      where: 'claude_desktop_config.json (Settings → Developer → Edit Config); mcp-remote opens Herald’s sign-in in the browser',
      format: 'json',
      snippet: json({ mcpServers: { herald: { command: 'npx', args: ['-y', 'mcp-remote', url] } } }),
      signIn: 'oauth',
    },
    {
      client: 'Any stdio client (mcp-remote bridge with a key)',
      where: 'the client’s server command, with HERALD_API_KEY set in its environment (not in a file you share)',
      format: 'shell',
      snippet: `HERALD_API_KEY=${KEY_PLACEHOLDER} npx ${bridge.map(shellWord).join(' ')}`,
      signIn: 'key',
    },
  ];
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function toolsetsSection(url: string): string {
  const rows = toolsetChoices()
    .available.map((t) => `<li><code>${t.name}</code>${t.default ? ' (default)' : ''}: ${escapeHtml(t.description)}</li>`)
    .join('');
  return `<section><h2>Choosing toolsets</h2><p>An assistant sees the tools of its toolsets only (fewer tools, less of its context spent). Without a choice it gets <code>${DEFAULT_TOOLSETS.join(', ')}</code>. Add them to the URL, <code>${escapeHtml(toolsetsUrl(['publishing', 'inbox'], url))}</code> (or <code>?toolsets=all</code>), or send the header <code>X-MCP-Toolsets: publishing,inbox</code>; clients that sign in can also tick them on Herald's sign-in page. This page with <code>?toolsets=…</code> gives every snippet with that URL.</p><ul>${rows}</ul></section>`;
}

function page(url: string, snippets: SetupSnippet[]): string {
  const sections = snippets
    .map(
      (s) =>
        `<section><h2>${escapeHtml(s.client)}</h2><p>${s.format === 'url' ? 'The URL' : 'Put this'} in ${escapeHtml(s.where)}:</p><pre><code>${escapeHtml(s.snippet)}</code></pre></section>`,
    )
    .join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Connect an assistant to Herald</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:760px;margin:2rem auto;padding:0 1rem;color:#1f2937}pre{background:#f3f4f6;padding:1rem;border-radius:8px;overflow:auto;font-size:14px}h1{font-size:1.6rem}h2{font-size:1.15rem;margin-top:2rem}code{font-family:ui-monospace,monospace}</style></head>
<body><main><h1>Connect an assistant to Herald</h1>
<p>Tool endpoint: <code>${escapeHtml(url)}</code>. Most clients need only this URL: they open Herald's sign-in, where a member picks the workspace and what the assistant may do. Others use an API key of the workspace (<code>sk_live_…</code>). Either way the assistant gets exactly those scopes and shares the rate limit with the REST API. Publishing, scheduling and other actions with an external effect wait for a member's confirmation in Herald unless the workspace turned that off.</p>
${toolsetsSection(mcpUrl())}
${sections}</main></body></html>`;
}

export function handleMcpSetup(req: Request): Response {
  const chosen = parseToolsets(new URL(req.url).searchParams.getAll(TOOLSETS_PARAM).join(','));
  if ('error' in chosen) return Response.json({ error: { code: 'VALIDATION_FAILED', message: chosen.error } }, { status: 400 });
  const url = toolsetsUrl(chosen.toolsets);
  const snippets = setupSnippets(url);
  const accept = req.headers.get('accept') ?? '';
  if (accept.includes('text/html')) return new Response(page(url, snippets), { headers: { 'Content-Type': 'text/html; charset=utf-8' } });
  return Response.json({
    data: {
      url,
      transport: 'streamable-http',
      authentication: 'OAuth 2.1 sign-in (discovered from the 401), or Authorization: Bearer sk_live_…',
      clients: snippets,
      toolsets: { ...toolsetChoices(), chosen: chosen.toolsets ?? [...DEFAULT_TOOLSETS] },
    },
  });
}
