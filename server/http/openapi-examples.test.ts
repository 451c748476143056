// Every example in the contract document is valid against the schema it illustrates: request
// bodies, success and error responses, parameters and webhook payloads, checked with a real
// JSON Schema validator (Ajv, draft 2020-12, the dialect of OpenAPI 3.1), so an example can
// never teach an integrator something the server would refuse or never send.
import { describe, expect, it } from 'vitest';
import { documentValidator } from '@/server/testing/document-validator';
import { buildOpenApiDocument } from './openapi';

type Json = Record<string, any>;
const doc = buildOpenApiDocument() as unknown as Json;
const validator = documentValidator(doc);

interface Example {
  where: string;
  schema: Json;
  value: unknown;
}

function examples(): Example[] {
  const out: Example[] = [];
  const media = (where: string, content: Json | undefined) => {
    for (const [type, m] of Object.entries<Json>(content ?? {})) {
      if (type !== 'application/json') continue;
      out.push({ where, schema: m.schema, value: m.example });
    }
  };
  const operations = [
    ...Object.entries<Json>(doc.paths).flatMap(([path, ops]) => Object.entries<Json>(ops).map(([m, op]) => [`${m.toUpperCase()} ${path}`, op] as const)),
    ...Object.entries<Json>(doc.webhooks).map(([event, entry]) => [`webhook ${event}`, entry.post] as const),
  ];
  for (const [name, op] of operations) {
    media(`${name} request body`, op.requestBody?.content);
    for (const [status, response] of Object.entries<Json>(op.responses)) media(`${name} → ${status}`, response.content);
    for (const p of op.parameters ?? []) if (p.example !== undefined) out.push({ where: `${name} parameter ${p.name}`, schema: p.schema, value: p.example });
  }
  return out;
}

describe('examples in the contract document', () => {
  const all = examples();

  it('exist for every request body and every JSON response', () => {
    const missing = all.filter((e) => e.value === undefined && !e.where.startsWith('webhook')).map((e) => e.where);
    expect(missing).toEqual([]);
    expect(all.length).toBeGreaterThan(400);
  });

  it('are valid against their schemas', () => {
    const invalid: string[] = [];
    for (const { where, schema, value } of all) {
      if (value === undefined) continue;
      const validate = validator.schema(schema);
      if (!validate(value)) invalid.push(`${where}: ${validator.errorsText(validate)}`);
    }
    expect(invalid).toEqual([]);
  });

  it('each webhook payload has an example built from the event catalogue', () => {
    for (const [event, entry] of Object.entries<Json>(doc.webhooks)) {
      const body = entry.post.requestBody.content['application/json'];
      expect(body.example, event).toMatchObject({ version: '1', event, data: expect.any(Object) });
    }
  });
});
