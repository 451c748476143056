// "5 minutes ago", as a <time>. The words depend on the moment they are computed, so the
// server's render and the browser's hydration may differ by a second ("4 seconds ago" against
// "5 seconds ago"); React is told that this text may differ (it then keeps the browser's)
// instead of failing the hydration of the whole page.
import { formatDistanceToNowStrict } from 'date-fns';

export function TimeAgo({ iso, prefix = '' }: { iso: string; prefix?: string }) {
  return (
    <time dateTime={iso} suppressHydrationWarning>
      {prefix}
      {formatDistanceToNowStrict(new Date(iso), { addSuffix: true })}
    </time>
  );
}
