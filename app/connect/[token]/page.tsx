// The hosted connect page: what a client of an agency opens, without logging in, to connect
// its own accounts. Rendered on the server in full (no loading state to shift the layout);
// the channel buttons and the account choice after a Meta consent are small client parts.
import type { Metadata } from 'next';
import { cookies, headers } from 'next/headers';
import { CONNECT_COOKIE } from '@/server/connect/connect-flow';
import { loadConnectPage } from '@/server/http/client-link-pages';
import { formatInZone } from '@/server/shared/time-zone';
import { BrandHeader, ClientPage, LinkProblemPage } from '../_ui/brand';
import styles from '../_ui/client-page.module.css';
import { PLATFORM_LABELS, PlatformBadge } from '../_ui/platforms';
import { AccountChoice } from './account-choice';
import { ChannelButtons } from './channel-buttons';

export const dynamic = 'force-dynamic';

export const metadata: Metadata = {
  title: 'Connect your accounts',
  robots: { index: false, follow: false },
  // The token is in the URL: never send it to another site.
  referrer: 'no-referrer',
};

const CALLBACK_ERRORS: Record<string, string> = {
  state: 'We could not verify that sign-in, so nothing was connected. Please try again.',
  session: 'Your connect session ended before the sign-in came back. Please try again.',
};

export default async function ConnectPage({
  params,
  searchParams,
}: {
  params: Promise<{ token: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { token } = await params;
  const query = await searchParams;
  const attemptId = typeof query.attempt === 'string' ? query.attempt : undefined;
  const callbackError = typeof query.error === 'string' ? CALLBACK_ERRORS[query.error] : undefined;
  const loaded = await loadConnectPage({ token, headers: await headers(), cookie: (await cookies()).get(CONNECT_COOKIE)?.value, attemptId });
  if (loaded.problem) return <LinkProblemPage problem={loaded.problem} />;

  const { data, attempt } = loaded;
  const platformLabel = attempt?.platform ? PLATFORM_LABELS[attempt.platform] : 'the platform';
  const expires = formatInZone(data.expiresAt, data.workspace.timeZone, 'd MMMM yyyy, HH:mm');

  return (
    <ClientPage>
      <BrandHeader brand={data.brand} />
      <section className={styles.card} aria-labelledby="connect-title">
        <h1 id="connect-title" className={styles.title}>
          Connect {data.workspace.name}’s accounts
        </h1>
        <p className={styles.lead}>
          {data.selfIssued ? 'Herald' : data.brand.name} will publish to the accounts you connect here. You stay in control: each platform asks for your
          permission, and you can disconnect at any time from the platform’s settings.
        </p>
      </section>

      {callbackError && (
        <div className={styles.noticeBad} role="alert">
          {callbackError}
        </div>
      )}
      {attempt?.status === 'completed' && attempt.connection && (
        <div className={styles.noticeOk} role="status" data-testid="connect-confirmation">
          Connected {attempt.connection.displayName} on {platformLabel}.
        </div>
      )}
      {attempt?.status === 'failed' && (
        <div className={styles.noticeBad} role="alert">
          {attempt.message ?? 'The connection did not complete. Please try again.'}
        </div>
      )}
      {attempt?.status === 'choosing' && attempt.choices.length > 0 && attemptId && (
        <section className={styles.card} aria-labelledby="choose-title">
          <h2 id="choose-title" className={styles.sectionTitle}>
            Which {platformLabel} account should {data.brand.name} publish to?
          </h2>
          <AccountChoice token={token} attemptId={attemptId} choices={attempt.choices} />
        </section>
      )}

      <section className={styles.card} aria-labelledby="channels-title">
        <h2 id="channels-title" className={styles.sectionTitle}>
          Choose a channel to connect
        </h2>
        <ChannelButtons
          token={token}
          channels={data.channels.map((c) => ({
            platform: c.platform,
            label: PLATFORM_LABELS[c.platform] ?? c.platform,
            mode: c.connectWith ?? 'unavailable',
            fields: c.fields,
            instructions: c.instructions,
            demo: c.demo,
          }))}
        />
      </section>

      <section className={styles.card} aria-labelledby="accounts-title">
        <h2 id="accounts-title" className={styles.sectionTitle}>
          Connected accounts
        </h2>
        {data.connections.length === 0 ? (
          <p className={styles.empty}>No accounts connected yet.</p>
        ) : (
          <ul className={styles.accounts} data-testid="connected-accounts">
            {data.connections.map((c) => (
              <li key={c.id} className={styles.account}>
                <PlatformBadge platform={c.platform} />
                <span className={styles.accountText}>
                  <span className={styles.accountName}>{c.displayName}</span>
                  <span className={styles.accountMeta}>
                    {PLATFORM_LABELS[c.platform] ?? c.platform} · {c.accountName}
                  </span>
                </span>
                <span className={c.status === 'active' ? styles.statusActive : styles.statusInactive}>
                  {c.status === 'active' ? 'Connected' : 'Reconnect needed'}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <p className={styles.footer}>
        {data.selfIssued
          ? `This is ${data.workspace.name}’s own connect link; it works until ${expires}.`
          : `This private link was sent to you by ${data.brand.name} and works until ${expires}.`}
      </p>
    </ClientPage>
  );
}
