'use client';
// Navigation (with the pending-approval and unread counts), the workspace switcher, sign-out.
import * as Menu from '@radix-ui/react-dropdown-menu';
import { useMutation, useQuery } from '@tanstack/react-query';
import {
  Bell,
  BookOpen,
  Bot,
  Building2,
  CalendarDays,
  ChartColumn,
  Check,
  ChevronsUpDown,
  Globe,
  Images,
  Inbox,
  KeyRound,
  LayoutDashboard,
  ListChecks,
  ListOrdered,
  LogOut,
  Menu as MenuIcon,
  PenSquare,
  Plug,
  RadioTower,
  Rss,
  Rows3,
  ShieldCheck,
  Settings,
  Webhook,
  Workflow,
  X,
} from 'lucide-react';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useState, type ReactNode } from 'react';
import { toast } from 'sonner';
import { Badge } from '@/app/_ui/primitives';
import { cn } from '@/app/_ui/cn';
import { useShell } from '../../_lib/providers';
import { useBrowserTimeZone } from '@/app/_ui/browser-time-zone';
import { serverError, trpc } from '../../_lib/trpc';
import { enterWorkspace } from '../../_lib/workspace-cookie';
import { NewClientDialog } from './new-client-dialog';

type Count = 'pendingApprovals' | 'unreadNotifications' | 'stagedProposals' | 'unreadInbox';
interface NavItem {
  href: string;
  label: string;
  icon: typeof Bell;
  count?: Count;
  /** Shown to the operator of this Herald only (server/agencies/operator.ts). */
  operatorOnly?: boolean;
}

/** The sections of the app, in the order staff reach for them. */
const NAV: { heading: string | null; items: NavItem[] }[] = [
  {
    heading: null,
    items: [
      { href: '/', label: 'Dashboard', icon: LayoutDashboard },
      { href: '/notifications', label: 'Notifications', icon: Bell, count: 'unreadNotifications' },
      { href: '/inbox', label: 'Inbox', icon: Inbox, count: 'unreadInbox' },
    ],
  },
  {
    heading: 'Publish',
    items: [
      { href: '/compose', label: 'Compose', icon: PenSquare },
      { href: '/posts', label: 'Posts', icon: Rows3 },
      { href: '/calendar', label: 'Calendar', icon: CalendarDays },
      { href: '/queue', label: 'Queue', icon: ListOrdered },
      { href: '/feeds', label: 'Feeds', icon: Rss },
      { href: '/media-library', label: 'Media library', icon: Images },
      { href: '/approvals', label: 'Approvals', icon: ListChecks, count: 'pendingApprovals' },
    ],
  },
  {
    heading: 'Clients',
    items: [
      { href: '/clients', label: 'Clients', icon: Building2 },
      { href: '/connections', label: 'Connections', icon: Plug },
      { href: '/networks', label: 'Networks', icon: RadioTower, operatorOnly: true },
      { href: '/api-keys', label: 'API keys', icon: KeyRound },
      { href: '/api-reference', label: 'API reference', icon: BookOpen },
    ],
  },
  {
    heading: 'Insights',
    items: [
      { href: '/analytics', label: 'Analytics', icon: ChartColumn },
      { href: '/crawl', label: 'Crawl', icon: Globe },
    ],
  },
  {
    heading: 'Automation',
    items: [
      { href: '/assistant', label: 'Assistant', icon: Bot, count: 'stagedProposals' },
      { href: '/workflows', label: 'Workflows', icon: Workflow },
      { href: '/webhooks', label: 'Webhooks', icon: Webhook },
    ],
  },
];

const COUNT_WORDS: Record<Count, string> = { pendingApprovals: 'waiting', unreadNotifications: 'unread', stagedProposals: 'to confirm', unreadInbox: 'unread' };

export function useShellData() {
  const initial = useShell();
  return useQuery({ queryKey: ['app.shell'], queryFn: async () => (await trpc.app.shell.query()).data, initialData: initial, refetchInterval: 30_000 }).data;
}

function switchTo(id: string) {
  // Detail pages belong to the workspace being left.
  // Detail pages (a post, a webhook, a crawled page …) belong to the workspace being left:
  // land on the section's own page instead.
  enterWorkspace(id, `/${window.location.pathname.split('/')[1] ?? ''}`);
}

export function AppShell({ children, signOutAction }: { children: ReactNode; signOutAction: () => Promise<void> }) {
  const shell = useShellData();
  const pathname = usePathname();
  const [newClient, setNewClient] = useState(false);
  // Agencies have dozens of clients: past a few, the switcher finds them by name.
  const [find, setFind] = useState('');
  const clientCount = shell.workspaces.reduce((n, w) => n + w.clients.length, 0);
  const matches = (name: string) => !find.trim() || name.toLowerCase().includes(find.trim().toLowerCase());
  // Below md the navigation folds behind a Menu button; it closes again on every navigation.
  const [menuOpen, setMenuOpen] = useState(false);
  const [openedAt, setOpenedAt] = useState(pathname);
  if (openedAt !== pathname) {
    setOpenedAt(pathname);
    setMenuOpen(false);
  }
  const current = NAV.flatMap((g) => g.items).find((i) => (i.href === '/' ? pathname === '/' : pathname === i.href || pathname.startsWith(`${i.href}/`)));
  const waiting = NAV.flatMap((g) => g.items).reduce((n, i) => n + (i.count ? shell.counts[i.count] : 0), 0);
  const active = (href: string) => (href === '/' ? pathname === '/' : pathname === href || pathname.startsWith(`${href}/`));

  return (
    <div className="min-h-screen md:grid md:grid-cols-[232px_minmax(0,1fr)]">
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:p-2">
        Skip to content
      </a>
      <aside className="border-b border-slate-200 bg-white md:sticky md:top-0 md:flex md:h-screen md:flex-col md:border-r md:border-b-0">
        <div className="flex items-center justify-between gap-2 px-4 pt-3 md:block md:pt-5">
          <div className="text-lg font-bold text-brand-700">Herald</div>
          <Menu.Root>
            <Menu.Trigger
              className="flex min-w-0 items-center gap-2 rounded-md border border-slate-300 bg-white px-3 py-2 text-left text-sm md:mt-4 md:w-full"
              aria-label={`Workspace: ${shell.current.name}. Switch workspace`}
            >
              <span className="min-w-0 flex-1 truncate font-medium" data-testid="workspace-name">
                {shell.current.name}
              </span>
              <ChevronsUpDown aria-hidden className="size-4 shrink-0 text-slate-500" />
            </Menu.Trigger>
            <Menu.Portal>
              <Menu.Content
                align="start"
                sideOffset={4}
                className="z-50 max-h-[70vh] min-w-60 overflow-y-auto rounded-md border border-slate-200 bg-white p-1 shadow-lg"
              >
                {clientCount > SEARCH_FROM ? (
                  <div className="p-1">
                    <input
                      type="search"
                      aria-label="Find a workspace"
                      placeholder="Find a client…"
                      value={find}
                      onChange={(e) => setFind(e.target.value)}
                      // The menu's own type-ahead would take the letters.
                      onKeyDown={(e) => e.key !== 'ArrowDown' && e.key !== 'Escape' && e.stopPropagation()}
                      className="w-full rounded border border-slate-300 px-2 py-1 text-sm"
                    />
                  </div>
                ) : null}
                {shell.workspaces.map((w) => (
                  <Menu.Group key={w.id}>
                    <Menu.Item
                      onSelect={() => switchTo(w.id)}
                      className="flex cursor-pointer items-center gap-2 rounded px-2 py-1.5 text-sm outline-none data-[highlighted]:bg-slate-100"
                    >
                      <span className="flex-1 font-medium">{w.name}</span>
                      <Badge>{w.role}</Badge>
                      {w.id === shell.current.id ? <Check aria-label="selected" className="size-4" /> : null}
                    </Menu.Item>
                    {w.clients
                      .filter((c) => matches(c.name))
                      .map((c) => (
                        <Menu.Item
                          key={c.id}
                          onSelect={() => switchTo(c.id)}
                          className="flex cursor-pointer items-center gap-2 rounded py-1.5 pr-2 pl-6 text-sm outline-none data-[highlighted]:bg-slate-100"
                        >
                          <span className="flex-1">{c.name}</span>
                          {c.id === shell.current.id ? <Check aria-label="selected" className="size-4" /> : null}
                        </Menu.Item>
                      ))}
                  </Menu.Group>
                ))}
                {shell.current.scopes.includes('workspaces:manage') ? (
                  <>
                    <Menu.Separator className="my-1 h-px bg-slate-200" />
                    <Menu.Item
                      onSelect={() => setNewClient(true)}
                      className="cursor-pointer rounded px-2 py-1.5 text-sm outline-none data-[highlighted]:bg-slate-100"
                    >
                      New client workspace…
                    </Menu.Item>
                  </>
                ) : null}
              </Menu.Content>
            </Menu.Portal>
          </Menu.Root>
        </div>
        <button
          type="button"
          className="mx-2 mt-3 mb-2 flex w-[calc(100%-1rem)] items-center gap-2 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium md:hidden"
          aria-expanded={menuOpen}
          aria-controls="main-nav"
          onClick={() => setMenuOpen((o) => !o)}
        >
          {menuOpen ? <X aria-hidden className="size-4" /> : <MenuIcon aria-hidden className="size-4" />}
          <span className="flex-1 text-left">Menu{current ? <span className="text-slate-600"> · {current.label}</span> : null}</span>
          {waiting > 0 ? (
            <span className="rounded-full bg-brand-600 px-1.5 text-xs font-semibold text-white">
              {waiting}
              <span className="sr-only"> need attention</span>
            </span>
          ) : null}
        </button>
        <nav
          id="main-nav"
          aria-label="Main"
          className={cn('px-2 pb-2 md:mt-2 md:block md:min-h-0 md:flex-1 md:overflow-y-auto', menuOpen ? 'block' : 'hidden')}
        >
          {NAV.map((group) => (
            <div key={group.heading ?? 'top'} className="mt-2 first:mt-0">
              {group.heading ? (
                <p id={`nav-${group.heading}`} className="px-3 pt-1 pb-1 text-xs font-semibold tracking-wide text-slate-600 uppercase">
                  {group.heading}
                </p>
              ) : null}
              <ul className="grid grid-cols-2 gap-1 md:grid-cols-1" aria-labelledby={group.heading ? `nav-${group.heading}` : undefined}>
                {group.items
                  .filter((item) => !item.operatorOnly || shell.user.operator)
                  .map((item) => {
                    const count = item.count ? shell.counts[item.count] : 0;
                    const Icon = item.icon;
                    return (
                      <li key={item.href}>
                        <Link
                          href={item.href}
                          aria-current={active(item.href) ? 'page' : undefined}
                          className={cn(
                            'flex items-center gap-2 rounded-md px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100',
                            active(item.href) && 'bg-brand-50 text-brand-700',
                          )}
                        >
                          <Icon aria-hidden className="size-4 shrink-0" />
                          <span className="truncate">{item.label}</span>
                          {count > 0 ? (
                            <span
                              className="ml-auto rounded-full bg-brand-600 px-1.5 text-xs font-semibold text-white"
                              data-testid={`count-${item.label.toLowerCase()}`}
                            >
                              {count}
                              <span className="sr-only"> {item.count ? COUNT_WORDS[item.count] : ''}</span>
                            </span>
                          ) : null}
                        </Link>
                      </li>
                    );
                  })}
              </ul>
            </div>
          ))}
        </nav>
        {/* Below the navigation, which scrolls on its own when the window is short: never over it. */}
        <div className={cn('border-slate-200 px-4 pb-3 text-xs text-slate-600 md:block md:border-t md:pt-3 md:pb-5', menuOpen ? 'block' : 'hidden')}>
          {/* A long address wraps where it must rather than being cut or running out of the column. */}
          <p className="break-words">Signed in as {shell.user.email}</p>
          <p>
            Role: {shell.current.role} · {shell.current.timeZone}
          </p>
          {shell.current.scopes.includes('workspaces:manage') ? <UseMyTimeZone current={shell.current.timeZone} /> : null}
          {/* Each link keeps its words on one line; one that does not fit the column moves down whole. */}
          <div className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1">
            <Link
              href="/settings"
              aria-current={pathname === '/settings' ? 'page' : undefined}
              className="inline-flex items-center gap-1 text-sm font-medium whitespace-nowrap text-brand-700 underline"
            >
              <Settings aria-hidden className="size-4" />
              Settings
            </Link>
            <Link
              href="/security"
              aria-current={pathname === '/security' ? 'page' : undefined}
              className="inline-flex items-center gap-1 text-sm font-medium whitespace-nowrap text-brand-700 underline"
            >
              <ShieldCheck aria-hidden className="size-4" />
              Security
            </Link>
            <form action={signOutAction}>
              <button type="submit" className="inline-flex items-center gap-1 text-sm font-medium whitespace-nowrap text-brand-700 underline">
                <LogOut aria-hidden className="size-4" />
                Sign out
              </button>
            </form>
          </div>
        </div>
      </aside>
      <div className="min-w-0">
        <main id="main" className="mx-auto max-w-6xl px-4 py-5 md:px-8">
          {children}
        </main>
      </div>
      <NewClientDialog open={newClient} onOpenChange={setNewClient} />
    </div>
  );
}

/** Clients in the switcher before it offers a search. */
const SEARCH_FROM = 5;

/** Offers the browser's time zone when the workspace schedules in another one. */
function UseMyTimeZone({ current }: { current: string }) {
  // The browser's zone exists only in the browser: null on the server render.
  const mine = useBrowserTimeZone();
  const set = useMutation({
    mutationFn: (timeZone: string) => trpc.settings.update.mutate({ timeZone }),
    onSuccess: () => window.location.reload(),
    onError: (e) => toast.error(serverError(e).message),
  });
  if (!mine || mine === current) return null;
  return (
    <button type="button" className="text-xs text-brand-700 underline" disabled={set.isPending} onClick={() => set.mutate(mine)}>
      Schedule in {mine} instead
    </button>
  );
}
