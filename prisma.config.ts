// Prisma CLI configuration. Only `prisma generate` runs here (see docs/database.md):
// migrations are applied by prisma/scripts/migrate.ts, and the app connects through
// @prisma/adapter-pg with the URL resolved at runtime.
import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
});
