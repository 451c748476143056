import { handlers } from '@/server/auth/staff-auth';

export const runtime = 'nodejs';
export const { GET, POST } = handlers;
