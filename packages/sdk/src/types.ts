// Types derived from the generated contract (generated/openapi.ts): which paths take which
// method, and each operation's parameters, body and success body.
import type { components, paths, webhooks } from './generated/openapi.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type Lower<M extends HttpMethod> = Lowercase<M>;

/** The paths that answer `method`. */
export type PathsFor<M extends HttpMethod> = { [P in keyof paths]: [NonNullable<paths[P][Lower<M>]>] extends [never] ? never : P }[keyof paths];
export type Operation<M extends HttpMethod, P extends keyof paths> = NonNullable<paths[P][Lower<M>]>;

export type PathParams<Op> = Op extends { parameters: { path: infer P } } ? P : never;
export type QueryParams<Op> = Op extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;
type JsonOf<T> = [NonNullable<T>] extends [never] ? never : NonNullable<T> extends { content: { 'application/json': infer B } } ? B : never;
export type RequestBody<Op> = Op extends { requestBody?: infer R } ? JsonOf<R> : never;

/** The 2xx body: JSON as the document defines it, text for CSV exports, undefined for 204. */
export type SuccessBody<Op> = Op extends { responses: infer R }
  ? {
      [S in keyof R]: S extends 200 | 201 | 202 ? (R[S] extends { content: { 'application/json': infer B } } ? B : string) : S extends 204 ? undefined : never;
    }[keyof R]
  : never;

export interface CallOptions {
  /** A write's Idempotency-Key. Default: a new UUID per call, kept across the SDK's retries. `null` sends none (and the call is then not retried). */
  idempotencyKey?: string | null;
  /** X-Service-Workspace for this call (an agency key acting for a managed workspace); overrides the client's. */
  workspaceId?: string | null;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Overrides the client's maxRetries for this call. */
  maxRetries?: number;
}

export type RequestOptions<Op> = CallOptions &
  ([PathParams<Op>] extends [never] ? { path?: undefined } : { path: PathParams<Op> }) &
  ([QueryParams<Op>] extends [never] ? { query?: undefined } : { query?: QueryParams<Op> }) &
  ([RequestBody<Op>] extends [never] ? { body?: undefined } : { body: RequestBody<Op> });

/** Options are optional exactly when nothing in them is required. */
export type OptionsArg<Op> = [PathParams<Op>] extends [never]
  ? [RequestBody<Op>] extends [never]
    ? [RequestOptions<Op>?]
    : [RequestOptions<Op>]
  : [RequestOptions<Op>];

/** GET paths whose answer is a list (`data: [...]`), the ones `paginate` walks. */
export type ListPaths = { [P in PathsFor<'GET'>]: SuccessBody<Operation<'GET', P>> extends { data: readonly unknown[] } ? P : never }[PathsFor<'GET'>];
export type ListItem<P extends ListPaths> = SuccessBody<Operation<'GET', P>> extends { data: readonly (infer T)[] } ? T : never;

export type Schemas = components['schemas'];
export type ErrorCode = Schemas['ErrorEnvelope']['error']['code'];

/** Every webhook body Herald sends, by event name. */
export type WebhookEvent = {
  [E in keyof webhooks]: RequestBody<NonNullable<webhooks[E]['post']>>;
}[keyof webhooks];
