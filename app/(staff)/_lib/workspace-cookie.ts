/** The workspace the switcher picked, remembered per browser. */
export const WORKSPACE_COOKIE = 'herald_ws';

/**
 * Remembers the workspace (null forgets it) and loads `path` afresh, so every screen and
 * cache starts over in the workspace now selected.
 */
export function enterWorkspace(id: string | null, path: string): void {
  document.cookie = id
    ? `${WORKSPACE_COOKIE}=${id}; path=/; max-age=${365 * 24 * 3600}; samesite=lax`
    : `${WORKSPACE_COOKIE}=; path=/; max-age=0; samesite=lax`;
  window.location.href = path;
}
