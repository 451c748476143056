// Calls one procedure of the app router by its dotted path with a transport's context: the
// REST facade and the tool endpoint both dispatch through here, so either runs the same
// chain (authenticate → workspace → rate limit → scope → idempotency → staging → handler).
import { createCaller } from '@/server/root';
import type { RequestContext } from '@/server/trpc/context';

type Callable = (input: unknown) => Promise<unknown>;

export function callProcedure(ctx: RequestContext, path: string, input: unknown): Promise<unknown> {
  const caller = createCaller(ctx) as unknown as Record<string, unknown>;
  const fn = path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], caller) as Callable;
  return fn(input);
}
