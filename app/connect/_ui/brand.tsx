// The agency's brand at the top of every client page, and the pages for links that no longer
// work. The logo is the agency's https URL, loaded by the browser (never fetched by Herald);
// its box has a fixed size so nothing moves when it arrives.
import type { ReactNode } from 'react';
import styles from './client-page.module.css';

export function BrandHeader({ brand }: { brand: { name: string; logoUrl: string | null } }) {
  return (
    <header className={styles.brand}>
      {brand.logoUrl ? (
        // eslint-disable-next-line @next/next/no-img-element -- an external URL of the agency's choosing, shown as-is
        <img className={styles.logo} src={brand.logoUrl} alt={`${brand.name} logo`} width={48} height={48} referrerPolicy="no-referrer" />
      ) : (
        <span className={styles.logoFallback} aria-hidden="true">
          {brand.name.trim().charAt(0).toUpperCase() || '•'}
        </span>
      )}
      <p className={styles.brandName}>{brand.name}</p>
    </header>
  );
}

export function ClientPage({ children }: { children: ReactNode }) {
  return (
    <div className={styles.page}>
      <main className={styles.container}>{children}</main>
    </div>
  );
}

export type LinkProblem = 'revoked' | 'expired' | 'throttled';

const PROBLEMS: Record<LinkProblem, { title: string; body: string }> = {
  revoked: {
    title: 'This link is no longer valid',
    body: 'It may have been replaced by a newer link. Ask the agency that sent it for a new one.',
  },
  expired: {
    title: 'This link has expired',
    body: 'Links are valid for a limited time. Ask the agency that sent it for a new one.',
  },
  throttled: {
    title: 'Too many attempts',
    body: 'Please wait a minute, then reload this page.',
  },
};

export function LinkProblemPage({ problem }: { problem: LinkProblem }) {
  const { title, body } = PROBLEMS[problem];
  return (
    <ClientPage>
      <section className={styles.card} aria-labelledby="problem-title" data-link-state={problem}>
        <h1 id="problem-title" className={styles.title}>
          {title}
        </h1>
        <p className={styles.lead}>{body}</p>
      </section>
    </ClientPage>
  );
}
