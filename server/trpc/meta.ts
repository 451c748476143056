// Route metadata read by the procedure middlewares and by the OpenAPI post-processor.
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { Scope } from '@/server/auth/scopes';
import type { ErrorCode } from '@/server/errors/catalogue';

export type HeraldMeta = OpenApiMeta & {
  /** Scope an API key must hold. Staff sessions hold every scope of their workspaces. */
  scope?: Scope;
  /** HTTP status of a success: 201 on creates, 204 (empty body) on some deletes. Default 200. */
  successStatus?: 200 | 201 | 204;
  /** The catalogue codes this route can answer, besides the ones every key route can. */
  errors?: readonly ErrorCode[];
  /** /workspaces/* routes refuse the workspace-selection header. */
  workspaceHeader?: 'forbidden';
};
