// Herald's API key credential: the key goes as a Bearer token, the optional agency workspace id
// as X-Service-Workspace (server/shared/headers.ts); the test lists the connections, the
// cheapest authenticated route that every key's scopes can read.
import type {
  IAuthenticate,
  ICredentialDataDecryptedObject,
  ICredentialTestRequest,
  ICredentialType,
  IHttpRequestOptions,
  INodeProperties,
} from 'n8n-workflow';

/** Header that selects a managed workspace for an agency key. */
export const WORKSPACE_HEADER = 'X-Service-Workspace';

/** The credential's base URL as the API root: `https://herald.example.com` → `https://herald.example.com/public/v1`. */
export function apiRoot(baseUrl: unknown): string {
  return `${String(baseUrl ?? '')
    .trim()
    .replace(/\/+$/, '')
    .replace(/\/public\/v1$/, '')}/public/v1`;
}

const authenticate: IAuthenticate = async (credentials: ICredentialDataDecryptedObject, requestOptions: IHttpRequestOptions) => {
  const workspaceId = String(credentials.workspaceId ?? '').trim();
  return {
    ...requestOptions,
    headers: {
      ...(requestOptions.headers ?? {}),
      Authorization: `Bearer ${String(credentials.apiKey ?? '')}`,
      ...(workspaceId ? { [WORKSPACE_HEADER]: workspaceId } : {}),
    },
  };
};

export class HeraldApi implements ICredentialType {
  name = 'heraldApi';
  displayName = 'Herald API';
  documentationUrl = 'https://github.com/herald/herald/blob/main/packages/n8n-nodes-herald/README.md';
  icon = 'file:herald.svg' as const;
  properties: INodeProperties[] = [
    {
      displayName: 'API Key',
      name: 'apiKey',
      type: 'string',
      typeOptions: { password: true },
      default: '',
      required: true,
      placeholder: 'sk_live_…',
      description: 'A Herald API key (Settings → API keys)',
    },
    {
      displayName: 'Base URL',
      name: 'baseUrl',
      type: 'string',
      default: '',
      required: true,
      placeholder: 'https://herald.example.com',
      description: 'Where your Herald runs; /public/v1 is added',
    },
    {
      displayName: 'Workspace ID',
      name: 'workspaceId',
      type: 'string',
      default: '',
      description: 'Agency keys only: the managed workspace to act for (sent as X-Service-Workspace). Leave empty to act for the key’s own workspace.',
    },
  ];
  authenticate = authenticate;
  test: ICredentialTestRequest = {
    request: {
      baseURL: '={{$credentials.baseUrl.trim().replace(/\\/+$/, "").replace(/\\/public\\/v1$/, "") + "/public/v1"}}',
      url: '/connections',
      method: 'GET',
    },
  };
}
