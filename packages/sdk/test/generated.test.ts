// The committed types (src/generated/openapi.ts) are what openapi-typescript makes of the
// server's current contract document: a route, field or error code changed on the server
// without `npm run generate` in packages/sdk fails here.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GENERATED_FILE, generatedTypes } from '../scripts/openapi-types';

describe('the generated types', () => {
  it('match the server’s contract document', async () => {
    const committed = readFileSync(GENERATED_FILE, 'utf8');
    const current = await generatedTypes();
    // A diff of 2 MB is unreadable: say where they part.
    const at = [...current].findIndex((ch, i) => ch !== committed[i]);
    expect(
      committed === current,
      `src/generated/openapi.ts is stale from character ${at} (run npm run generate in packages/sdk):\n${current.slice(at, at + 300)}`,
    ).toBe(true);
  }, 60_000);
});
