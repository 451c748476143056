/**
 * Vitest setupFiles: secrets `npm start` would generate into DATA_DIR, made up per test file
 * when the environment has none (a bare `npx vitest run`).
 */
import { randomBytes } from 'node:crypto';

process.env.WEBHOOK_SECRET_KEY ||= randomBytes(32).toString('base64url');
