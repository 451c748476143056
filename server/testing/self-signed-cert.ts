// A throwaway self-signed certificate (it is its own CA) for local HTTPS test servers, made
// with the machine's openssl. Clients trust it explicitly (a `ca` option, or
// NODE_EXTRA_CA_CERTS pointing at `certPath`).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface SelfSignedCert {
  key: string;
  cert: string;
  /** The certificate on disk, for NODE_EXTRA_CA_CERTS; gone after remove(). */
  certPath: string;
  remove(): void;
}

/** Writes a key and its self-signed certificate (valid one day) to the given paths. */
export function writeSelfSignedCert(paths: { keyPath: string; certPath: string }, commonName: string, altNames: readonly string[]): void {
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-keyout',
      paths.keyPath,
      '-out',
      paths.certPath,
      '-subj',
      `/CN=${commonName}`,
      '-addext',
      `subjectAltName=${altNames.join(',')}`,
    ],
    { stdio: 'ignore' },
  );
}

/** `altNames` like `['DNS:media.test', 'IP:127.0.0.1']`. */
export function createSelfSignedCert(commonName: string, altNames: readonly string[]): SelfSignedCert {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'herald-cert-'));
  const keyPath = path.join(dir, 'key.pem');
  const certPath = path.join(dir, 'cert.pem');
  writeSelfSignedCert({ keyPath, certPath }, commonName, altNames);
  return {
    key: readFileSync(keyPath, 'utf8'),
    cert: readFileSync(certPath, 'utf8'),
    certPath,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
