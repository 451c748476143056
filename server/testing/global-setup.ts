/**
 * Vitest globalSetup: runs once, in the main vitest process, before any worker.
 *
 * Builds a template database with the app's migrations applied, so that each
 * test file can get its own database as a cheap `CREATE DATABASE … TEMPLATE`
 * copy (see per-file-database.ts) instead of migrating again.
 *
 * The server is DATABASE_URL's when that is set (CI, a local PostgreSQL),
 * otherwise the shared embedded one (started here if nothing runs it yet).
 */
import { randomBytes } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import { deployMigrations } from '../../prisma/scripts/migrate';
import { ensureEmbeddedPostgres, type EmbeddedPostgres } from '../db/embedded';
import { dropDatabase, quoteIdent, withDatabase, withMaintenanceClient } from '../db/url';
import { env } from '../config/env';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Template database with the app's migrations applied. */
    heraldTemplateDatabaseUrl: string;
  }
}

export default async function setup(project: TestProject) {
  let embedded: EmbeddedPostgres | undefined;
  let baseUrl = env.databaseUrl();
  if (!baseUrl) {
    embedded = await ensureEmbeddedPostgres();
    baseUrl = embedded.url;
  }

  const template = `herald_template_${randomBytes(6).toString('hex')}`;
  const templateUrl = withDatabase(baseUrl, template);
  const dropTemplate = () => dropDatabase(templateUrl);

  try {
    await withMaintenanceClient(baseUrl, (client) => client.query(`CREATE DATABASE ${quoteIdent(template)}`));
    // An empty or missing prisma/migrations leaves an empty template: fine.
    await deployMigrations({ url: templateUrl });
  } catch (error) {
    await dropTemplate().catch(() => undefined);
    await embedded?.stop();
    throw new Error(`Could not prepare the test template database: ${(error as Error).message}`);
  }
  project.provide('heraldTemplateDatabaseUrl', templateUrl);

  return async () => {
    // Every file's database of this run (herald_t_<run>_…), now that no worker holds a connection:
    // one after another on one connection. (All at once, a connection each, a full run's 240
    // met the server's max_connections and most of them were left behind on a shared server.)
    const runId = template.replace('herald_template_', '');
    await withMaintenanceClient(baseUrl, async (client) => {
      const { rows } = await client.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE $1`, [`herald_t_${runId}_%`]);
      for (const { datname } of rows) {
        await client
          .query(`DROP DATABASE IF EXISTS ${quoteIdent(datname)} WITH (FORCE)`)
          .catch((error: unknown) => console.warn(`Could not drop ${datname}: ${(error as Error).message}`));
      }
    });
    await dropTemplate().catch((error) => console.warn(`Could not drop ${template}: ${(error as Error).message}`));
    await embedded?.stop(); // only stops a server this process started
  };
}
