/**
 * How to connect to the embedded server: the fixed superuser the cluster is
 * initialised with, and the URL built from it and the port in server.json.
 */
export const USER = 'postgres';
// Local development server bound to 127.0.0.1 only; the password is not a secret.
export const PASSWORD = 'postgres';

export function embeddedUrl(port: number): string {
  return `postgresql://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`;
}
