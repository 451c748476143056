'use client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createContext, useContext, useState, type ReactNode } from 'react';
import { Toaster } from 'sonner';
import type { AppShellDto } from '@/server/app/shell-data';
import { setWorkspace } from './trpc';

const ShellContext = createContext<AppShellDto | null>(null);

export function useShell(): AppShellDto {
  const shell = useContext(ShellContext);
  if (!shell) throw new Error('useShell outside the staff app');
  return shell;
}

export function Providers({ shell, children }: { shell: AppShellDto; children: ReactNode }) {
  setWorkspace(shell.current.id);
  const [client] = useState(() => new QueryClient({ defaultOptions: { queries: { staleTime: 15_000, retry: 1, refetchOnWindowFocus: false } } }));
  return (
    <QueryClientProvider client={client}>
      <ShellContext.Provider value={shell}>{children}</ShellContext.Provider>
      <Toaster position="bottom-right" richColors closeButton />
    </QueryClientProvider>
  );
}
