// Writes src/generated/openapi.ts from the current contract document. Run from the
// repository root (the document's code uses the `@/` paths): `npm run generate` in
// packages/sdk does that.
import { writeFileSync } from 'node:fs';
import { GENERATED_FILE, generatedTypes } from './openapi-types';

const text = await generatedTypes();
writeFileSync(GENERATED_FILE, text);
console.log(`wrote ${GENERATED_FILE} (${text.length} characters)`);
