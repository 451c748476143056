// The signed-in app shell. Later screens (composer, calendar, approval queue, clients,
// settings) hang off this navigation.
import { redirect } from 'next/navigation';
import { auth, signOut } from '@/server/auth/staff-auth';
import { loadShellData } from '@/server/app/shell-data';
import Link from 'next/link';

export const dynamic = 'force-dynamic';

const NAV = ['Dashboard', 'Compose', 'Calendar', 'Approvals', 'Clients', 'Analytics', 'Settings'];

export default async function Home() {
  const session = await auth();
  const userId = session?.user?.id;
  if (!userId) redirect('/signin');
  const data = await loadShellData(userId);
  if (!data) redirect('/signin');
  const primary = data.workspaces[0];

  return (
    <div className="shell">
      <nav className="sidebar" aria-label="Main">
        <div className="brand">Herald</div>
        {NAV.map((item, i) => (
          <Link key={item} className="nav-item" href="/" aria-current={i === 0 ? 'page' : undefined}>
            {item}
          </Link>
        ))}
      </nav>
      <main className="main">
        <div className="topbar">
          <div>
            <h1 style={{ margin: 0 }} data-testid="workspace-name">
              {primary?.name ?? 'No workspace'}
            </h1>
            <span className="muted">Signed in as {data.user.email}</span>
          </div>
          <form
            action={async () => {
              'use server';
              await signOut({ redirectTo: '/signin' });
            }}
          >
            <button className="button secondary" type="submit">
              Sign out
            </button>
          </form>
        </div>
        <section className="grid">
          {data.workspaces.map((ws) => (
            <article key={ws.id} className="card">
              <h2 style={{ marginTop: 0 }}>{ws.name}</h2>
              <p className="muted">
                <span className="badge">{ws.role}</span> · {ws.slug}
              </p>
              <p className="muted">{ws.clients.length ? `${ws.clients.length} client workspaces` : 'No client workspaces yet'}</p>
            </article>
          ))}
        </section>
      </main>
    </div>
  );
}
