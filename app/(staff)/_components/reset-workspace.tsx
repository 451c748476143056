'use client';
import { useEffect } from 'react';
import { WORKSPACE_COOKIE } from '../_lib/workspace-cookie';

export function ResetWorkspace() {
  useEffect(() => {
    document.cookie = `${WORKSPACE_COOKIE}=; path=/; max-age=0; samesite=lax`;
    window.location.assign('/');
  }, []);
  return <p role="status">Switching back to your workspace…</p>;
}
