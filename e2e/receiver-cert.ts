// The certificate of the local HTTPS webhook receiver the e2e journeys start. The server under
// test trusts it through NODE_EXTRA_CA_CERTS (set in playwright.config.ts for that server
// only), so TLS stays verified exactly as in production. It lives at a fixed path per port
// because the config is loaded by the runner and again by each worker, which must all agree;
// it is renewed when older than half its one-day validity.
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeSelfSignedCert } from '../server/testing/self-signed-cert';

export interface ReceiverCert {
  certPath: string;
  key: string;
  cert: string;
}

export function receiverCert(port: number): ReceiverCert {
  const dir = path.join(os.tmpdir(), `herald-e2e-receiver-${port}`);
  const keyPath = path.join(dir, 'key.pem');
  const certPath = path.join(dir, 'cert.pem');
  const fresh = existsSync(certPath) && existsSync(keyPath) && Date.now() - statSync(certPath).mtimeMs < 12 * 3_600_000;
  if (!fresh) {
    mkdirSync(dir, { recursive: true });
    writeSelfSignedCert({ keyPath, certPath }, 'herald-e2e-receiver', ['IP:127.0.0.1']);
  }
  return { certPath, key: readFileSync(keyPath, 'utf8'), cert: readFileSync(certPath, 'utf8') };
}
