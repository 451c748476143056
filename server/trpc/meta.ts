// Route metadata read by the procedure middlewares, the OpenAPI post-processor and the tool
// endpoint.
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { Scope } from '@/server/auth/scopes';
import type { ErrorCode } from '@/server/errors/catalogue';

type Args = Record<string, unknown>;

/** How the tool endpoint treats the route (server/mcp, docs/mcp.md). */
export interface AssistantMeta {
  /**
   * A call with an external or destructive effect waits for a member's confirmation (a
   * staged action, server/proposals) unless the workspace or key turned that off. `true`:
   * always; a function: when it returns true for the call's arguments (a post with a
   * `scheduledAt` is a schedule, one without is a draft and runs at once).
   */
  stage?: true | ((args: Args) => boolean);
  /** One readable line for the member deciding on the staged call. */
  title?: (args: Args) => string;
  /** Guidance for an assistant beyond the summary: when to use the tool, how to recover. */
  hint?: string;
  /**
   * What outside Herald the call acts on, from which the tool's annotations follow
   * (server/mcp/tools.ts): `networks` posts to social platforms — open-world, and
   * destructive since a post cannot be taken back; `receivers` sends to webhook endpoints —
   * open-world. Unset: the call stays inside Herald (its database, storage and jobs).
   */
  reaches?: 'networks' | 'receivers';
}

export type HeraldMeta = OpenApiMeta & {
  /** Scope an API key must hold. Staff sessions hold every scope of their workspaces. */
  scope?: Scope;
  /** HTTP status of a success: 201 on creates, 204 (empty body) on some deletes. Default 200. */
  successStatus?: 200 | 201 | 204;
  /** The catalogue codes this route can answer, besides the ones every key route can. */
  errors?: readonly ErrorCode[];
  /**
   * When this route answers a code, in its own words, where the catalogue's general sentence
   * would mislead (retry's POST_NOT_EDITABLE) or a code means something route-specific
   * (VALIDATION_FAILED). Keyed by status where the code has more than one: VALIDATION_FAILED
   * is documented as 409 only on the routes that name it here. The OpenAPI document reads it
   * (server/http/openapi.ts).
   */
  errorWhen?: { readonly [C in ErrorCode]?: string | { readonly [status: number]: string } };
  /** /workspaces/* routes refuse the workspace-selection header. */
  workspaceHeader?: 'forbidden';
  /**
   * `field`: a query or path parameter that is missing, malformed or unknown answers
   * VALIDATION_FAILED (400) naming the parameter in `field`, instead of the flat schema 400
   * (the analytics and crawl routes; docs/decisions.md).
   */
  inputErrors?: 'field';
  /**
   * A route behind a deployment flag: while this returns false the route answers
   * ROUTE_NOT_FOUND before anything else (key, scope), exactly like a path that does not exist.
   */
  enabled?: () => boolean;
  assistant?: AssistantMeta;
  /**
   * `text/csv`: over REST the route answers its output's `csv` text as a CSV file (with
   * `filename` as the attachment name) instead of JSON; tRPC and the tool endpoint get the
   * JSON object (docs/decisions.md, "A CSV route through the facade").
   */
  produces?: 'text/csv';
  /**
   * The largest JSON body this route reads over REST, where it needs more than the API's
   * general MAX_BODY_BYTES (a file of posts to import). Its 413 says this number.
   */
  maxBodyBytes?: number;
};
