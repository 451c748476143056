// This machine's own names: a developer may open Herald at any of them, and a desktop
// client's redirect may use any of them (RFC 8252 §7.3).
export const LOOPBACK_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

/** Whether a URL's hostname (`new URL(...).hostname`) names this machine. */
export const isLoopbackHost = (hostname: string): boolean => LOOPBACK_HOSTS.includes(hostname);
