// The demo account a sandbox channel connects: one per platform and workspace, so connecting
// it again updates the same row (like a real reconnect). It publishes through the in-process
// sandbox (provider `sandbox`), which never leaves Herald.
import type { AccountToSave } from '@/server/connections/save-connected-account';
import type { Platform } from '@/server/shared/platforms';

export function sandboxAccount(platform: Platform, workspaceName: string): AccountToSave {
  const handle = workspaceName
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 24);
  return {
    externalId: `sandbox-${platform}`,
    accountName: `@${handle || 'demo'}_demo`,
    displayName: `${workspaceName} (demo)`,
    avatarUrl: null,
    accessToken: null,
    refreshToken: null,
    expiresAt: null,
    scopes: null,
  };
}
