// The allowed direction of imports (docs/architecture.md → "Imports"). `npm run lint` fails on
// any rule below. Paths are relative to the project root; `@/…` resolves through tsconfig.
const DOMAINS =
  '(analytics|best-times|crawl|api-keys|auth|client-links|client-review|connect|connections|events|idempotency|links|media|notifications|oauth|outbound|platforms|posts|proposals|ratelimit|webhooks|workflows|workspaces|app)';

/** Tests may reach anything they need to set up. */
const TESTS = ['\\.test\\.ts$', '/__tests__/'];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'Imports run one way: a cycle means two modules are really one, or a rule sits in the wrong place.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'domains-do-not-import-transports',
      severity: 'error',
      comment: 'Services are called by transports (REST, tRPC, tools, jobs), never the other way round.',
      from: { path: `^server/${DOMAINS}/`, pathNot: TESTS },
      to: { path: ['^app/', '^server/http/', '^server/mcp/', '^server/root\\.ts$', '^server/runtime/'] },
    },
    {
      name: 'only-routers-know-trpc',
      severity: 'error',
      comment: 'A domain exposes its services through its <domain>.router.ts; services take plain arguments, not the tRPC context.',
      from: { path: `^server/${DOMAINS}/`, pathNot: [...TESTS, '\\.router\\.ts$'] },
      to: { path: '^server/trpc/' },
    },
    {
      name: 'domains-enqueue-through-the-port',
      severity: 'error',
      comment: 'Domain code enqueues through server/jobs (index, catalogue, definition); runners and Inngest are wired in server/runtime and inngest/.',
      from: { path: `^server/${DOMAINS}/`, pathNot: TESTS },
      to: { path: ['^inngest/', '^server/jobs/(local-runner|local-jobs|inngest-jobs|inngest-events|job-schema|run-job|worker-logger)\\.ts$'] },
    },
    {
      name: 'the-jobs-port-knows-no-domain',
      severity: 'error',
      comment: 'Handlers are bound in server/runtime/job-handlers.ts; the port and its runners never import the code that uses them.',
      from: { path: '^server/jobs/', pathNot: TESTS },
      to: { path: [`^server/${DOMAINS}/`, '^server/runtime/'] },
    },
    {
      name: 'shared-imports-nothing-of-herald',
      severity: 'error',
      comment: 'server/shared holds the primitives every layer uses; it depends on nothing of ours.',
      from: { path: '^server/shared/' },
      to: { path: ['^server/(?!shared/)', '^app/', '^inngest/', '^prisma/'] },
    },
    {
      name: 'platforms-do-not-know-posts',
      severity: 'error',
      comment: 'Adapters publish what delivery hands them; post rules read the platform catalogue, not the reverse.',
      from: { path: '^server/platforms/' },
      to: { path: '^server/posts/' },
    },
    {
      name: 'production-code-does-not-import-tests',
      severity: 'error',
      comment: 'Test helpers (server/testing, */testing/, *.test.ts) serve tests, benchmarks and the chaos run only.',
      from: { path: '^(app|server|inngest|prisma)/', pathNot: ['\\.test\\.ts$', '^server/testing/', '/testing/', '^prisma/seed\\.ts$'] },
      to: { path: ['^server/testing/', '/testing/', '\\.test\\.ts$'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['^server/generated/', '^node_modules/', '^\\.next/'] },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.mts', '.js', '.mjs', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
