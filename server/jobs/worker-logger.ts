// graphile-worker logs every start, poll and job at info level; only problems are worth
// showing in the app's output (a failed job attempt is an error, so it shows).
import { Logger } from 'graphile-worker';
import { log } from '@/server/observability/log';

export const quietLogger = new Logger((scope) => (level, message) => {
  if (level !== 'error' && level !== 'warning') return;
  const job = scope.taskIdentifier ? `${scope.taskIdentifier}${scope.jobId ? `#${scope.jobId}` : ''}` : undefined;
  // The message already carries the error and its stack; the metadata (the whole job row) is noise.
  (level === 'error' ? log.error : log.warn)('jobs', message, undefined, job ? { job } : {});
});
