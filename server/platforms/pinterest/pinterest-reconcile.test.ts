// The Pinterest reconciler against the documented board pins answer, served by the local HTTPS
// stand-in through the guarded client.
//   https://developers.pinterest.com/docs/api/v5/boards-list_pins
//   https://developers.pinterest.com/docs/api/v5/ (errors)
//   https://developers.pinterest.com/docs/getting-started/authentication-and-scopes/ (refresh)
import { describe, expect, it } from 'vitest';
import type { AttemptIntent, ReconcileContext } from '../reconcile';
import { liveConnection, MemoryTokenStore, storedConnection, useFakePlatformApi } from '../testing/adapter-tests';
import { fixture } from '../testing/fake-platform-api';
import type { PinterestOptions } from './pinterest-publisher';
import { createPinterestReconciler } from './pinterest-reconcile';

const f = (name: string) => fixture(import.meta.dirname, name);
const PIN_ID = '813744226420795884';
const BOARD = '549755885175';
const PINS = `/v5/boards/${BOARD}/pins`;

const api = useFakePlatformApi();
const connection = liveConnection('pinterest', {
  externalId: BOARD,
  accountName: 'heraldcoffee / Winter drinks',
  accessToken: 'pina_current',
  platformData: { boardId: BOARD, username: 'heraldcoffee' },
});
const reconciler = (extra: Partial<PinterestOptions> = {}) =>
  createPinterestReconciler({ fetch: api.fetch, baseUrl: api.baseUrl, clientId: '', clientSecret: '', ...extra });
const ctx = (tokens = new MemoryTokenStore()): ReconcileContext => ({ tokens, now: new Date('2026-11-27T10:00:00Z') });
const intent = (extra: Partial<AttemptIntent> = {}): AttemptIntent => ({
  idempotencyKey: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
  content: 'Dark chocolate, orange peel, a long finish.',
  mediaUrls: ['https://cdn.herald.example/m/cup.jpg'],
  settings: { title: 'Winter blend', link: 'https://herald.example/winter-blend' },
  startedAt: new Date('2026-11-27T09:30:00Z'),
  ...extra,
});
const onlyReads = () => expect(api.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`)).toEqual([]);

describe('Pinterest reconcile from the board’s pins', () => {
  it('finds the pin created since the attempt began with the description, title and link sent, as the publisher would have answered', async () => {
    api.on('GET', PINS, { json: f('board-pins') });
    const settled = await reconciler().reconcile(connection, intent(), ctx());

    expect(settled).toEqual({
      outcome: 'found',
      result: { postedId: PIN_ID, permalink: `https://www.pinterest.com/pin/${PIN_ID}/` },
      evidence: `Pinterest pin ${PIN_ID} on board ${BOARD} (created 2026-11-27T09:30:04.000Z) carries the description, title and link sent by the attempt begun 2026-11-27T09:30:00.000Z`,
    });
    const [read, ...more] = api.requests;
    expect(more).toEqual([]);
    expect(read!.query.get('page_size')).toBe('50');
    expect(read!.headers.authorization).toBe('Bearer pina_current');
    onlyReads();
  });

  it('reads the board the post chose over the connection’s', async () => {
    api.on('GET', '/v5/boards/549755885176/pins', { json: { items: [], bookmark: null } });
    const settled = await reconciler().reconcile(connection, intent({ settings: { boardId: '549755885176' } }), ctx());
    expect(settled).toEqual({ outcome: 'absent', evidence: expect.stringContaining('There are no pins on board 549755885176 at all') });
  });

  it('does not take a pin with another title or link for it', async () => {
    api.on('GET', PINS, { json: f('board-pins') });
    expect((await reconciler().reconcile(connection, intent({ settings: { title: 'Winter blend II' } }), ctx())).outcome).toBe('absent');
    expect((await reconciler().reconcile(connection, intent({ settings: { link: 'https://herald.example/other' } }), ctx())).outcome).toBe('absent');
  });

  it('does not take a pin created before the attempt for it', async () => {
    api.on('GET', PINS, { json: f('board-pins') });
    const settled = await reconciler().reconcile(connection, intent({ startedAt: new Date('2026-11-28T09:00:00Z') }), ctx());
    expect(settled).toEqual({ outcome: 'absent', evidence: expect.stringContaining('read back to 2026-11-18T09:00:00.000Z') });
    onlyReads();
  });

  it('is absent when the board was read to its end', async () => {
    api.on('GET', PINS, { json: { ...f('board-pins'), bookmark: null } });
    const settled = await reconciler().reconcile(connection, intent({ content: 'Spiced pear, cold brewed' }), ctx());
    expect(settled).toEqual({ outcome: 'absent', evidence: expect.stringContaining(`None of the 3 most recent pins of board ${BOARD}`) });
  });

  it('is unknown when the pins read do not come newest first and the board goes on', async () => {
    const answer = f('board-pins');
    answer.items.reverse();
    api.on('GET', PINS, { json: answer });
    const settled = await reconciler().reconcile(connection, intent({ content: 'Spiced pear, cold brewed' }), ctx());
    expect(settled).toEqual({ outcome: 'unknown', evidence: expect.stringContaining('older ones were not read') });
  });

  it('is unknown when two pins since the attempt carry what was sent', async () => {
    const answer = f('board-pins');
    answer.items.unshift({ ...answer.items[0], id: '813744226420799999', created_at: '2026-11-27T09:31:00' });
    api.on('GET', PINS, { json: answer });
    const settled = await reconciler().reconcile(connection, intent(), ctx());
    expect(settled).toEqual({ outcome: 'unknown', evidence: expect.stringMatching(/^2 pins on board 549755885175 created since the attempt began/) });
  });

  it('is unknown without a board to read', async () => {
    const noBoard = liveConnection('pinterest', { externalId: 'x', accountName: 'heraldcoffee', accessToken: 'pina_current' });
    expect((await reconciler().reconcile(noBoard, intent(), ctx())).outcome).toBe('unknown');
    expect(api.requests).toEqual([]);
  });

  it('is unknown with Pinterest’s words when the read fails or is refused', async () => {
    api.on('GET', PINS, { status: 500, json: f('error-server') });
    expect(await reconciler().reconcile(connection, intent(), ctx())).toEqual({
      outcome: 'unknown',
      evidence: 'Pinterest could not be asked: Unexpected error',
    });
    api.on('GET', PINS, { status: 403, json: f('error-forbidden') });
    expect((await reconciler().reconcile(connection, intent(), ctx())).evidence).toBe(
      'Pinterest could not be asked: You are not permitted to access that resource.',
    );
    api.on('GET', PINS, { status: 401, json: f('error-authentication') });
    expect((await reconciler().reconcile(connection, intent(), ctx())).evidence).toBe('Pinterest could not be asked: Authentication failed.');
  });

  it('refreshes a refused token and reads again', async () => {
    const { connection: row, tokens } = storedConnection('pinterest', {
      externalId: BOARD,
      accountName: 'heraldcoffee / Winter drinks',
      accessToken: 'pina_old',
      refreshToken: 'pinr_old',
      tokenExpiresAt: new Date(Date.now() + 3_600_000),
    });
    api.on('GET', PINS, { status: 401, json: f('error-authentication') }, { json: f('board-pins') });
    api.on('POST', '/v5/oauth/token', { json: f('token-refreshed') });
    const settled = await reconciler({ clientId: 'app-id', clientSecret: 'app-secret' }).reconcile(
      { ...row, platformData: { boardId: BOARD } },
      intent(),
      ctx(tokens),
    );
    expect(settled.outcome).toBe('found');
    expect(api.calls('GET', PINS).map((r) => r.headers.authorization)).toEqual(['Bearer pina_old', 'Bearer pina_AMAZ3WWWREFRESHED']);
    expect(tokens.get(row.id)!.accessToken).toBe('pina_AMAZ3WWWREFRESHED');
  });
});
