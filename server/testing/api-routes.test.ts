import { describe, expect, it } from 'vitest';
import { restRoutes } from '@/server/http/rest-routes';
import { API_ROUTES } from './api-routes';

describe('the typed route table of API tests', () => {
  it('lists exactly the routes the facade serves, with their procedures', () => {
    const served = Object.fromEntries(restRoutes().map((r) => [`${r.method} ${r.path}`, r.procedure]));
    expect(API_ROUTES).toEqual(served);
  });
});
