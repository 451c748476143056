// `npm run lint:openapi`: writes the contract document as served and lints it with Redocly
// (rules in redocly.yaml). The document is generated from the routers, so it is linted from
// a fresh build of it, not from a file in the repository.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildOpenApiDocument } from '@/server/http/openapi';
import { ROOT } from './prepare';

const dir = mkdtempSync(path.join(tmpdir(), 'herald-openapi-'));
const file = path.join(dir, 'openapi.json');
writeFileSync(file, JSON.stringify(buildOpenApiDocument(), null, 2));
const res = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/@redocly/cli/bin/cli.js'), 'lint', file, '--config', path.join(ROOT, 'redocly.yaml')], {
  stdio: 'inherit',
  env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
});
rmSync(dir, { recursive: true, force: true });
process.exit(res.status ?? 1);
