// Which statuses allow which change: the state rules of post-rules.ts that the app's screens
// also read (to offer an action only where the service will accept it). No database here,
// so browser code can import it.
import type { PostStatus } from './posts.schemas';

/** A post can be edited and cancelled while nothing has shipped (a failed post can be retried). */
export const EDITABLE_STATUSES: readonly PostStatus[] = ['draft', 'scheduled', 'failed'];
export const PUBLISHABLE_STATUSES: readonly PostStatus[] = ['draft', 'scheduled', 'failed'];
/** Posts whose failed targets can be delivered again (POST /posts/{id}/retry). */
export const RETRYABLE_STATUSES: readonly PostStatus[] = ['failed', 'partial_published'];
