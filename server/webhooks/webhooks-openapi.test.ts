// docs/webhooks.md and the contract document's `webhooks` section cannot drift: every event
// and every delivery header the page names is in the document, and everything the document
// describes is on the page; the document's section is itself built from the event catalogue
// and the sender's header names (webhooks-openapi.ts).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '@/server/http/openapi';
import { DOMAIN_EVENT_DATA_SCHEMAS, DOMAIN_EVENT_TYPES } from '@/server/events/catalogue';
import { HEADERS, WEBHOOK_USER_AGENT } from '@/server/shared/headers';

type Json = Record<string, any>;
const doc = buildOpenApiDocument() as unknown as Json;
const page = readFileSync(path.resolve('docs/webhooks.md'), 'utf8');

/** Event names the page's event table lists: the backticked names of its first column. */
function eventsOnPage(): string[] {
  const table = page.slice(page.indexOf('| Event'), page.indexOf('`ping` is sent only'));
  return [...table.matchAll(/^\|\s*(.+?)\s*\|/gm)].flatMap(([, cell]) => [...cell!.matchAll(/`([a-z_.]+)`/g)].map((m) => m[1]!));
}

/** Header names the page's delivery example shows. */
function headersOnPage(): string[] {
  const block = page.slice(page.indexOf('```http'), page.indexOf('```', page.indexOf('```http') + 7));
  return [...block.matchAll(/^([A-Za-z-]+): /gm)].map((m) => m[1]!).filter((h) => h !== 'Content-Type');
}

describe('docs/webhooks.md and the document’s webhooks section', () => {
  it('name the same events, ping included', () => {
    const documented = Object.keys(doc.webhooks).sort();
    expect([...eventsOnPage(), 'ping'].sort()).toEqual(documented);
    expect(documented).toEqual([...DOMAIN_EVENT_TYPES, 'ping'].sort());
    expect(page).toContain('`ping`');
  });

  it('name the same delivery headers, with the signature algorithm', () => {
    for (const [event, entry] of Object.entries<Json>(doc.webhooks)) {
      const headers = entry.post.parameters.map((p: Json) => p.name).sort();
      expect(headers, event).toEqual([...headersOnPage()].sort());
      expect(headers).toEqual([HEADERS.delivery, HEADERS.event, HEADERS.signature, 'User-Agent'].sort());
      const signature = entry.post.parameters.find((p: Json) => p.name === HEADERS.signature);
      expect(signature.description).toMatch(/HMAC-SHA256/);
      expect(entry.post.parameters.find((p: Json) => p.name === 'User-Agent').schema.const).toBe(WEBHOOK_USER_AGENT);
    }
    expect(page).toMatch(/HMAC-SHA256/);
    expect(page).toContain(`User-Agent: ${WEBHOOK_USER_AGENT}`);
  });

  it('list the same data fields per event', () => {
    const table = page.slice(page.indexOf('| Event'), page.indexOf('`ping` is sent only'));
    for (const event of DOMAIN_EVENT_TYPES) {
      const row = table.split('\n').find((line) => line.includes(`\`${event}\``))!;
      const documented = Object.keys(doc.webhooks[event].post.requestBody.content['application/json'].schema.properties.data.properties);
      expect(documented).toEqual(Object.keys(DOMAIN_EVENT_DATA_SCHEMAS[event].shape));
      // A field is written `name` or, with its parts, `name { … }`.
      for (const field of documented) expect(row, `${event}.${field}`).toMatch(new RegExp(`\`${field}[\` ]`));
    }
  });
});
