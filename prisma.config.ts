// Prisma CLI configuration. Herald applies migrations with its own tool
// (prisma/scripts/migrate.ts, same folder layout and _prisma_migrations table); on a machine
// with Prisma's native engine, `DATABASE_URL=… npx prisma migrate deploy` works on the same
// folder through the datasource below. The app connects through @prisma/adapter-pg with the
// URL resolved at runtime.
import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  ...(process.env.DATABASE_URL ? { datasource: { url: process.env.DATABASE_URL } } : {}),
});
