'use client';
import { useEffect } from 'react';
import { enterWorkspace } from '../../_lib/workspace-cookie';

export function ResetWorkspace() {
  useEffect(() => {
    enterWorkspace(null, '/');
  }, []);
  return <p role="status">Switching back to your workspace…</p>;
}
