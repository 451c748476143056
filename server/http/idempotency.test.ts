// Idempotency-Key: replay, conflict, length, in-flight, and 20 concurrent duplicates.
import { describe, expect, it } from 'vitest';
import { db } from '@/server/db/client';
import { usePublicApi } from '@/server/testing/public-api';
import { createWorkspaceWithKey, uniq } from '@/server/testing/fixtures';

const api = usePublicApi();

const managedCount = (agencyId: string, name: string) => db.workspace.count({ where: { managedById: agencyId, name } });

describe('Idempotency-Key', () => {
  it('replays the first response (status and body) for the same request', async () => {
    const { workspace, secret } = await createWorkspaceWithKey();
    const headers = { 'Idempotency-Key': uniq('idem') };
    const first = await api('POST', '/workspaces', { key: secret, headers, body: { name: 'Replayed' } });
    const second = await api('POST', '/workspaces', { key: secret, headers, body: { name: 'Replayed' } });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(await managedCount(workspace.id, 'Replayed')).toBe(1);
  });

  it('treats the same fields in another order as the same request', async () => {
    const { workspace, secret } = await createWorkspaceWithKey();
    const key = uniq('idem');
    const slug = uniq('order');
    const json = { 'content-type': 'application/json', 'Idempotency-Key': key };
    const first = await api('POST', '/workspaces', { key: secret, headers: json, rawBody: `{"name":"Ordered","slug":"${slug}"}` });
    const second = await api('POST', '/workspaces', { key: secret, headers: json, rawBody: `{"slug":"${slug}","name":"Ordered"}` });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(await managedCount(workspace.id, 'Ordered')).toBe(1);
  });

  it('answers 422 IDEMPOTENCY_KEY_CONFLICT for a different request with the same key', async () => {
    const { secret } = await createWorkspaceWithKey();
    const headers = { 'Idempotency-Key': uniq('idem') };
    expect((await api('POST', '/workspaces', { key: secret, headers, body: { name: 'One' } })).status).toBe(201);
    const other = await api('POST', '/workspaces', { key: secret, headers, body: { name: 'Two' } });
    expect(other.status).toBe(422);
    expect(other.body.error.code).toBe('IDEMPOTENCY_KEY_CONFLICT');
  });

  it('scopes keys to the workspace', async () => {
    const a = await createWorkspaceWithKey();
    const b = await createWorkspaceWithKey();
    const headers = { 'Idempotency-Key': 'shared-key' };
    expect((await api('POST', '/workspaces', { key: a.secret, headers, body: { name: 'A' } })).status).toBe(201);
    const res = await api('POST', '/workspaces', { key: b.secret, headers, body: { name: 'B' } });
    expect(res.status).toBe(201);
    expect(res.body.data.name).toBe('B');
  });

  it('refuses a key over 255 characters with VALIDATION_FAILED', async () => {
    const { workspace, secret } = await createWorkspaceWithKey();
    const res = await api('POST', '/workspaces', { key: secret, headers: { 'Idempotency-Key': 'k'.repeat(256) }, body: { name: 'Long' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', field: 'Idempotency-Key' });
    expect(await managedCount(workspace.id, 'Long')).toBe(0);
    const ok = await api('POST', '/workspaces', { key: secret, headers: { 'Idempotency-Key': 'k'.repeat(255) }, body: { name: 'Long' } });
    expect(ok.status).toBe(201);
  });

  it('runs 20 concurrent duplicates exactly once; the others wait (409) or replay', async () => {
    const { workspace, secret } = await createWorkspaceWithKey();
    const headers = { 'Idempotency-Key': uniq('burst') };
    const results = await Promise.all(Array.from({ length: 20 }, () => api('POST', '/workspaces', { key: secret, headers, body: { name: 'Burst' } })));
    expect(await managedCount(workspace.id, 'Burst')).toBe(1);
    const created = results.filter((r) => r.status === 201);
    const inFlight = results.filter((r) => r.status === 409);
    expect(created.length + inFlight.length).toBe(20);
    expect(created.length).toBeGreaterThanOrEqual(1);
    for (const r of created) expect(r.body).toEqual(created[0]!.body);
    for (const r of inFlight) expect(r.body.error.code).toBe('IDEMPOTENCY_IN_FLIGHT');
    // Once the first finished, the same key replays its result.
    const later = await api('POST', '/workspaces', { key: secret, headers, body: { name: 'Burst' } });
    expect(later.status).toBe(201);
    expect(later.body).toEqual(created[0]!.body);
  });

  it('releases the key when the request fails, so the client may retry', async () => {
    const { secret } = await createWorkspaceWithKey();
    const slug = uniq('taken');
    await api('POST', '/workspaces', { key: secret, body: { name: 'x', slug } });
    const headers = { 'Idempotency-Key': uniq('idem') };
    const failed = await api('POST', '/workspaces', { key: secret, headers, body: { name: 'y', slug } });
    expect(failed.status).toBe(409);
    expect(failed.body.error.code).toBe('VALIDATION_FAILED');
    const retried = await api('POST', '/workspaces', { key: secret, headers, body: { name: 'y', slug: `${slug}-2` } });
    expect(retried.status).toBe(201);
  });
});
