// The Inngest client. Keys come from the environment as the SDK expects: INNGEST_EVENT_KEY
// for sending, INNGEST_SIGNING_KEY for serving (INNGEST_DEV=1 against a dev server).
import { Inngest } from 'inngest';

export const inngest = new Inngest({ id: 'herald' });
