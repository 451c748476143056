// Route handlers for Inngest's callbacks; mounted by app/api/inngest/route.ts as
// `export { GET, POST, PUT } from '@/inngest/serve'`.
import { serve } from 'inngest/next';
import { inngest } from './client';
import { functions } from './functions';

export const { GET, POST, PUT } = serve({ client: inngest, functions });
