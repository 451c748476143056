// `npm run seed`: the demo data, idempotent, against the same database the app uses (the
// running app's embedded server is joined, not started twice). The last line of stdout is
// one JSON object describing what an integrator needs to try Herald.
import { prepareDatabase } from '@/server/runtime/prepare';
import { env } from '@/server/config/env';

const OWNER_EMAIL = env.seedOwnerEmail();
const OWNER_PASSWORD = env.seedOwnerPassword();

const SANDBOX_ACCOUNTS = [
  { platform: 'instagram', externalId: 'sbx-ig-1', accountName: 'demoagency', displayName: 'Demo Agency (Instagram)', sandbox: 'ok' },
  { platform: 'facebook', externalId: 'sbx-fb-1', accountName: 'demoagency', displayName: 'Demo Agency (Facebook Page)', sandbox: 'ok' },
  { platform: 'linkedin', externalId: 'sbx-li-1', accountName: 'demo-agency', displayName: 'Demo Agency (LinkedIn)', sandbox: 'ok' },
  { platform: 'twitter', externalId: 'sbx-x-1', accountName: 'demoagency', displayName: 'Demo Agency (X)', sandbox: 'ok' },
  { platform: 'threads', externalId: 'sbx-th-1', accountName: 'demoagency', displayName: 'Demo Agency (Threads)', sandbox: 'ok' },
  { platform: 'tiktok', externalId: 'sbx-tt-1', accountName: 'demoagency', displayName: 'Demo Agency (TikTok)', sandbox: 'ok' },
  {
    platform: 'linkedin',
    externalId: 'sbx-li-rejects',
    accountName: 'demo-agency-careers',
    displayName: 'Demo Agency Careers (LinkedIn, rejects posts)',
    sandbox: 'rejects_posts',
  },
  {
    platform: 'twitter',
    externalId: 'sbx-x-expired',
    accountName: 'demoagency_old',
    displayName: 'Demo Agency Archive (X, token expired)',
    sandbox: 'expired',
  },
] as const;

async function main(): Promise<void> {
  await prepareDatabase();
  const { db } = await import('@/server/db/client');
  const { hashPassword } = await import('@/server/auth/password');
  const { createApiKey } = await import('@/server/api-keys/mint-api-key');
  const { SCOPES } = await import('@/server/auth/scopes');

  const workspace = await db.workspace.upsert({
    where: { slug: 'demo-agency' },
    update: {},
    create: { name: 'Demo Agency', slug: 'demo-agency' },
  });
  const passwordHash = await hashPassword(OWNER_PASSWORD);
  const owner = await db.user.upsert({
    where: { email: OWNER_EMAIL },
    update: { passwordHash },
    create: { email: OWNER_EMAIL, name: 'Demo Owner', passwordHash },
  });
  await db.membership.upsert({
    where: { userId_workspaceId: { userId: owner.id, workspaceId: workspace.id } },
    update: { role: 'owner' },
    create: { userId: owner.id, workspaceId: workspace.id, role: 'owner' },
  });

  const farFuture = new Date(Date.now() + 365 * 24 * 3_600_000);
  const connections = [];
  for (const a of SANDBOX_ACCOUNTS) {
    const expired = a.sandbox === 'expired';
    const values = {
      provider: 'sandbox',
      accountName: a.accountName,
      displayName: a.displayName,
      sandboxBehavior: a.sandbox,
      status: 'active',
      // Sandbox tokens: valid for a year, except the expired account's, which lapsed yesterday.
      tokenExpiresAt: expired ? new Date(Date.now() - 24 * 3_600_000) : farFuture,
    };
    const row = await db.connection.upsert({
      where: { workspaceId_platform_externalId: { workspaceId: workspace.id, platform: a.platform, externalId: a.externalId } },
      update: values,
      create: { workspaceId: workspace.id, platform: a.platform, externalId: a.externalId, ...values },
    });
    connections.push({ id: row.id, platform: row.platform, displayName: row.displayName, sandbox: a.sandbox });
  }

  const key = await createApiKey({ workspaceId: workspace.id, name: `Seed key ${new Date().toISOString()}`, scopes: SCOPES });

  console.log(`Seeded workspace "${workspace.name}" with ${connections.length} sandbox connections; sign in as ${OWNER_EMAIL}.`);
  console.log(
    JSON.stringify({
      baseUrl: env.baseUrl(),
      workspace: { id: workspace.id, slug: workspace.slug, name: workspace.name },
      apiKey: key.secret,
      staff: { email: OWNER_EMAIL, password: OWNER_PASSWORD },
      connections,
    }),
  );
}

main()
  .then(async () => {
    const { stopEmbeddedIfOwned } = await import('@/server/db/url');
    await stopEmbeddedIfOwned();
    process.exit(0);
  })
  .catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
