// The tool endpoint on the production server: the SDK's client over Streamable HTTP with the
// seeded key (a draft at once, a publish staged), the setup page, and an assistant signing in
// by OAuth through the consent page a member sees in the browser.
import { createHash, randomBytes } from 'node:crypto';
import { analyzeAccessibility } from './screen-check';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect, test } from './test';

type Seed = {
  apiKey: string;
  staff: { email: string; password: string };
  workspace: { id: string; name: string };
  connections: Array<{ id: string; platform: string }>;
};
const seed = () => JSON.parse(process.env.HERALD_SEED ?? '{}') as Seed;

test('an assistant drafts at once, and its publish waits for a member who confirms it on the link', async ({ baseURL, page }) => {
  const { apiKey, connections, staff } = seed();
  const client = new Client({ name: 'e2e-assistant', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL('/public/v1/mcp', baseURL), { requestInit: { headers: { Authorization: `Bearer ${apiKey}` } } }),
  );
  const tools = (await client.listTools()).tools.map((t) => t.name);
  // The default toolset, publishing: what drafting and publishing need, and nothing else.
  expect(tools).toEqual(expect.arrayContaining(['posts_create', 'posts_publish', 'proposals_get']));
  expect(tools).not.toContain('workflows_run');
  const linkedin = connections.find((c) => c.platform === 'linkedin')!;
  const draft = await client.callTool({ name: 'posts_create', arguments: { content: 'Drafted by an assistant', connectionIds: [linkedin.id] } });
  const post = (draft.structuredContent as { data: { id: string; status: string } }).data;
  expect(post.status).toBe('draft');
  const publish = await client.callTool({ name: 'posts_publish', arguments: { id: post.id } });
  const staged = (publish.structuredContent as { staged: { actionId: string; status: string; confirmUrl: string } }).staged;
  expect(staged.status).toBe('staged');
  const followUp = await client.callTool({ name: 'proposals_get', arguments: { id: staged.actionId } });
  expect((followUp.structuredContent as { data: { status: string } }).data.status).toBe('staged');

  // The member opens the link the assistant passed on, signs in, reads what will run, confirms.
  await page.goto(new URL(staged.confirmUrl).pathname);
  await expect(page).toHaveURL(/\/signin/);
  await page.getByLabel('Email').fill(staff.email);
  await page.getByLabel('Password').fill(staff.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText(/publish/i);
  await expect(page.locator('pre')).toContainText(post.id);
  const axe = await analyzeAccessibility(page, 'every rule');
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
  await page.getByRole('button', { name: 'Confirm and run' }).click();
  await expect(page.getByText(/Confirm(ed — running now|ed and done)/)).toBeVisible();
  await expect
    .poll(async () => {
      const read = await client.callTool({ name: 'proposals_get', arguments: { id: staged.actionId } });
      return (read.structuredContent as { data: { status: string } }).data.status;
    })
    .toBe('executed');
  await client.close();
});

test('the setup page shows snippets with this deployment’s URL', async ({ page, baseURL }) => {
  await page.goto('/public/v1/mcp/setup');
  await expect(page.getByRole('heading', { name: 'Connect an assistant to Herald' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Claude Code' })).toBeVisible();
  await expect(page.locator('pre').first()).toContainText(`${baseURL}/public/v1/mcp`);
});

test('a member lets an assistant in through the consent page', async ({ page, request, baseURL }) => {
  const { staff, workspace } = seed();
  const metadata = await (await request.get('/.well-known/oauth-authorization-server')).json();
  expect(metadata.registration_endpoint).toBe(`${baseURL}/oauth/register`);
  const redirect = 'http://localhost:8976/callback';
  const registered = await (await request.post('/oauth/register', { data: { client_name: 'Desk Assistant', redirect_uris: [redirect] } })).json();
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const authorize = `/oauth/authorize?${new URLSearchParams({
    response_type: 'code',
    client_id: registered.client_id,
    redirect_uri: redirect,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'xyz',
    scope: 'posts:read connections:read',
  })}`;

  await page.goto(authorize);
  await expect(page).toHaveURL(/\/signin/);
  await page.getByLabel('Email').fill(staff.email);
  await page.getByLabel('Password').fill(staff.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Connect Desk Assistant to Herald' })).toBeVisible();
  await expect(page.getByRole('combobox', { name: /^Workspace/ })).toContainText(workspace.name);
  const axe = await analyzeAccessibility(page, 'every rule');
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);

  const callback = page.waitForRequest((r) => r.url().startsWith(redirect));
  await page.getByRole('button', { name: 'Allow' }).click();
  const back = new URL((await callback).url());
  expect(back.searchParams.get('state')).toBe('xyz');
  const token = await request.post('/oauth/token', {
    form: {
      grant_type: 'authorization_code',
      code: back.searchParams.get('code')!,
      code_verifier: verifier,
      client_id: registered.client_id,
      redirect_uri: redirect,
    },
  });
  expect(token.status()).toBe(200);
  const { access_token, scope } = await token.json();
  expect(scope).toBe('posts:read connections:read');
  // The token is bound to the tool endpoint (RFC 8707): it lists tools there, and the REST
  // API refuses it.
  const client = new Client({ name: 'desk-assistant', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL('/public/v1/mcp', baseURL), { requestInit: { headers: { Authorization: `Bearer ${access_token}` } } }),
  );
  expect((await client.listTools()).tools.map((t) => t.name)).toContain('posts_list');
  await client.close();
  const posts = await request.get('/public/v1/posts', { headers: { Authorization: `Bearer ${access_token}` } });
  expect(posts.status()).toBe(401);
});
