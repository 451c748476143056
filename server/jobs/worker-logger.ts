// graphile-worker logs every start, poll and job at info level; only problems are worth
// showing in the app's output (a failed job attempt is an error, so it shows).
import { Logger } from 'graphile-worker';

export const quietLogger = new Logger((scope) => (level, message) => {
  if (level !== 'error' && level !== 'warning') return;
  const where = scope.taskIdentifier ? ` ${scope.taskIdentifier}${scope.jobId ? `#${scope.jobId}` : ''}` : '';
  const log = level === 'error' ? console.error : console.warn;
  // The message already carries the error and its stack; the metadata (the whole job row) is noise.
  log(`[jobs${where}] ${message}`);
});
