// Envelopes, status codes and the exact error bodies of the contract.
import { beforeAll, describe, expect, it } from 'vitest';
import { usePublicApi } from '@/server/testing/public-api';
import { createWorkspace, createWorkspaceWithKey } from '@/server/testing/fixtures';

const api = usePublicApi();
let secret: string;
beforeAll(async () => {
  secret = (await createWorkspaceWithKey()).secret;
});

describe('strict request validation', () => {
  it('refuses unknown fields with the flat 400 body, one message per problem', async () => {
    const res = await api('POST', '/workspaces', { key: secret, body: { name: 'Acme', colour: 'red', plan: 'pro' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ statusCode: 400, message: ['colour is not allowed', 'plan is not allowed'], error: 'Bad Request' });
  });

  it('names missing and mistyped fields', async () => {
    const missing = await api('POST', '/workspaces', { key: secret, body: {} });
    expect(missing.body).toEqual({ statusCode: 400, message: ['name is required'], error: 'Bad Request' });
    const typed = await api('POST', '/workspaces', { key: secret, body: { name: 42, slug: 'Bad Slug!' } });
    expect(typed.status).toBe(400);
    expect(typed.body.message).toHaveLength(2);
    expect(typed.body.message[0]).toMatch(/^name: /);
    expect(typed.body.message[1]).toMatch(/^slug: /);
  });

  it('refuses a body that is not JSON, or not an object', async () => {
    const bad = await api('POST', '/workspaces', { key: secret, rawBody: '{nope', headers: { 'content-type': 'application/json' } });
    expect(bad.body).toEqual({ statusCode: 400, message: ['body is not valid JSON'], error: 'Bad Request' });
    const arr = await api('POST', '/workspaces', { key: secret, body: [1, 2] });
    expect(arr.body).toEqual({ statusCode: 400, message: ['body must be a JSON object'], error: 'Bad Request' });
  });

  it('answers 415 for a body that is not sent as JSON', async () => {
    const res = await api('POST', '/workspaces', { key: secret, rawBody: 'name=x', headers: { 'content-type': 'text/plain' } });
    expect(res.status).toBe(415);
    expect(res.body).toMatchObject({ statusCode: 415, error: 'Unsupported Media Type' });
  });
});

describe('envelopes and statuses', () => {
  it('creates with 201 { data, warnings }, reads with { data }, deletes with an empty 204', async () => {
    const created = await api('POST', '/workspaces', { key: secret, body: { name: 'Client One' } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      data: {
        id: expect.any(String),
        name: 'Client One',
        slug: expect.stringMatching(/^client-one/),
        managedBy: expect.any(String),
        timeZone: 'UTC',
        createdAt: expect.any(String),
      },
      warnings: [],
    });
    const id = created.body.data.id;
    const read = await api('GET', `/workspaces/${id}`, { key: secret });
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ data: created.body.data });
    const list = await api('GET', '/workspaces', { key: secret });
    expect(list.body.data.map((w) => w.id)).toContain(id);

    const del = await api('DELETE', `/workspaces/${id}`, { key: secret });
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    const gone = await api('GET', `/workspaces/${id}`, { key: secret });
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ error: { code: 'WORKSPACE_NOT_FOUND', message: expect.any(String), field: 'id' } });
  });

  it('answers WORKSPACE_NOT_FOUND for a workspace this key does not manage, or a non-uuid id', async () => {
    const other = await createWorkspace();
    expect((await api('GET', `/workspaces/${other.id}`, { key: secret })).body.error.code).toBe('WORKSPACE_NOT_FOUND');
    expect((await api('GET', '/workspaces/nope', { key: secret })).body.error.code).toBe('WORKSPACE_NOT_FOUND');
  });

  it('refuses a taken slug with VALIDATION_FAILED (409), and derives a free one from a taken name', async () => {
    const slug = `taken-${Date.now()}`;
    expect((await api('POST', '/workspaces', { key: secret, body: { name: 'A', slug } })).status).toBe(201);
    const again = await api('POST', '/workspaces', { key: secret, body: { name: 'B', slug } });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ error: { code: 'VALIDATION_FAILED', message: expect.stringContaining(slug), field: 'slug' } });
    const byName = await api('POST', '/workspaces', { key: secret, body: { name: slug } });
    expect(byName.status).toBe(201);
    expect(byName.body.data.slug).toMatch(new RegExp(`^${slug}-[0-9a-f]{6}$`));
  });

  it('answers an unknown route with ROUTE_NOT_FOUND', async () => {
    const res = await api('GET', '/nothing-here', { key: secret });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('ROUTE_NOT_FOUND');
  });
});
