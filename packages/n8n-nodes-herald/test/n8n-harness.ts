// Runs the package the way n8n runs it, with n8n's own published engine (n8n-core,
// n8n-workflow), outside the n8n monorepo: the package is built (tsc, as `npm run build`),
// loaded by n8n-core's PackageDirectoryLoader from its package.json `n8n` section, and each
// node executed by n8n-core's WorkflowExecute in a one-node workflow; the trigger's webhook
// methods run in n8n-core's HookContext and its webhook() in n8n-core's WebhookContext.
// n8n's NodeTestHarness (which replays pinned workflow JSON against nock mocks) is not
// published (it lives in the monorepo's packages/core/nodes-testing), so the pieces it wires
// are wired here: node types, a credentials helper that applies the credential's own
// `authenticate`, lifecycle hooks that collect the run. Requests are real HTTP.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type * as Core from 'n8n-core';
import type * as N8nWorkflow from 'n8n-workflow';
import type {
  ICredentialDataDecryptedObject,
  IDataObject,
  IHttpRequestOptions,
  INode,
  INodeExecutionData,
  INodeType,
  INodeTypes,
  IRun,
  IWebhookData,
  IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';

export const PACKAGE_DIR = path.resolve(import.meta.dirname, '..');
const require = createRequire(path.join(PACKAGE_DIR, 'package.json'));

// n8n-core reads its instance settings (a config file with an encryption key) from the user
// folder when a node context is made: a throwaway one, never the tester's ~/.n8n.
const userFolder = mkdtempSync(path.join(os.tmpdir(), 'herald-n8n-user-'));
process.env.N8N_USER_FOLDER = userFolder;
process.on('exit', () => rmSync(userFolder, { recursive: true, force: true }));

// CommonJS, as n8n loads them: the node files, n8n-core and the tests share one n8n-workflow.
export const core = require('n8n-core') as typeof Core;
export const workflowLib = require('n8n-workflow') as typeof N8nWorkflow;

export interface LoadedPackage {
  dir: string;
  loader: Core.PackageDirectoryLoader;
  nodeTypes: INodeTypes;
  node(name: string): INodeType;
  /** A file of the built package, required as n8n would (for its exported helpers). */
  module<T>(relative: string): T;
  remove(): void;
}

/**
 * Builds the package into a fresh folder under its node_modules (so the built files resolve
 * n8n-workflow as an installed package does) with its package.json, and loads it with n8n's loader.
 */
export async function buildAndLoad(): Promise<LoadedPackage> {
  const cache = path.join(PACKAGE_DIR, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(path.join(cache, 'herald-n8n-'));
  execFileSync(process.execPath, [path.join(PACKAGE_DIR, 'scripts/build.mjs'), path.join(dir, 'dist')], { stdio: 'pipe' });
  copyFileSync(path.join(PACKAGE_DIR, 'package.json'), path.join(dir, 'package.json'));
  const loader = new core.PackageDirectoryLoader(dir);
  await loader.loadAll();
  const node = (name: string) => {
    const found = loader.nodeTypes[name];
    if (!found) throw new Error(`node type ${name} not loaded`);
    return found.type as INodeType;
  };
  const nodeTypes: INodeTypes = {
    getByName: (type) => node(type.replace(`${loader.packageName}.`, '')),
    getByNameAndVersion: (type, version) => workflowLib.NodeHelpers.getVersionedNodeType(node(type.replace(`${loader.packageName}.`, '')), version),
    getKnownTypes: () => ({}),
  };
  return {
    dir,
    loader,
    nodeTypes,
    node,
    module: <T>(relative: string) => require(path.join(dir, relative)) as T,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Credentials as n8n's own helper serves them: decrypted data, authenticated by the credential type's `authenticate`. */
class CredentialsHelper extends workflowLib.ICredentialsHelper {
  constructor(
    private readonly pkg: LoadedPackage,
    private readonly data: Record<string, ICredentialDataDecryptedObject>,
  ) {
    super();
  }
  getParentTypes(): string[] {
    return [];
  }
  async authenticate(credentials: ICredentialDataDecryptedObject, typeName: string, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
    const auth = this.pkg.loader.getCredential(typeName).type.authenticate;
    if (typeof auth !== 'function') throw new Error(`${typeName}: only function authenticate is wired in this harness`);
    return auth(credentials, requestOptions);
  }
  async preAuthentication(): Promise<undefined> {
    return undefined;
  }
  async getCredentials(): Promise<never> {
    throw new Error('not used by these nodes');
  }
  async getDecrypted(_a: unknown, _n: unknown, type: string): Promise<ICredentialDataDecryptedObject> {
    const found = this.data[type];
    if (!found) throw new Error(`no ${type} credentials in this test`);
    return found;
  }
  async updateCredentials(): Promise<void> {}
  async updateCredentialsOauthTokenData(): Promise<void> {}
  getCredentialsProperties(type: string) {
    return this.pkg.loader.getCredential(type).type.properties;
  }
}

export interface HarnessOptions {
  credentials: ICredentialDataDecryptedObject;
  /** Base of the node webhook URLs (n8n's WEBHOOK_URL + /webhook). */
  webhookBaseUrl?: string;
}

function additionalData(pkg: LoadedPackage, options: HarnessOptions, extra: Partial<IWorkflowExecuteAdditionalData> = {}): IWorkflowExecuteAdditionalData {
  return {
    credentialsHelper: new CredentialsHelper(pkg, { heraldApi: options.credentials }),
    executionId: '1',
    restApiUrl: 'http://localhost:5678/rest',
    instanceBaseUrl: 'http://localhost:5678',
    webhookBaseUrl: options.webhookBaseUrl ?? 'http://localhost:5678/webhook',
    webhookWaitingBaseUrl: 'http://localhost:5678/webhook-waiting',
    webhookTestBaseUrl: 'http://localhost:5678/webhook-test',
    formWaitingBaseUrl: 'http://localhost:5678/form-waiting',
    variables: {},
    currentNodeParameters: undefined,
    executeWorkflow: async () => {
      throw new Error('sub-workflows are not part of these tests');
    },
    getRunExecutionData: async () => undefined,
    logAiEvent: () => {},
    startRunnerTask: async () => {
      throw new Error('no task runner in these tests');
    },
    ...extra,
  } as unknown as IWorkflowExecuteAdditionalData;
}

const credentialsRef = { heraldApi: { id: '1', name: 'Herald' } };

export function heraldNode(type: 'herald' | 'heraldTrigger', parameters: IDataObject, extra: Partial<INode> = {}): INode {
  return {
    id: `${type}-node`,
    name: type === 'herald' ? 'Herald' : 'Herald Trigger',
    type: `n8n-nodes-herald.${type}`,
    typeVersion: 1,
    position: [0, 0],
    parameters: parameters as INode['parameters'],
    credentials: credentialsRef,
    ...extra,
  };
}

export interface NodeRun {
  items: INodeExecutionData[];
  error?: Error & { description?: string; httpCode?: string };
  run: IRun;
}

/** Executes the Herald node with these parameters on these input items, through WorkflowExecute. */
export async function executeNode(
  pkg: LoadedPackage,
  options: HarnessOptions,
  parameters: IDataObject,
  input: INodeExecutionData[] = [{ json: {} }],
): Promise<NodeRun> {
  const node = heraldNode('herald', parameters);
  const workflow = new workflowLib.Workflow({
    id: 'wf-1',
    name: 'Herald test',
    nodes: [node],
    connections: {},
    active: false,
    nodeTypes: pkg.nodeTypes,
    settings: {},
  });
  const hooks = new core.ExecutionLifecycleHooks('manual', '1', {
    id: 'wf-1',
    name: 'Herald test',
    active: false,
    isArchived: false,
    nodes: [node],
    connections: {},
    createdAt: new Date(),
    updatedAt: new Date(),
    activeVersionId: null,
  } as unknown as ConstructorParameters<typeof core.ExecutionLifecycleHooks>[2]);
  const done = new Promise<IRun>((resolve) => hooks.addHandler('workflowExecuteAfter', (run) => resolve(run)));
  const runExecutionData = workflowLib.createRunExecutionData({
    executionData: { nodeExecutionStack: [{ node, data: { main: [input] }, source: null }], waitingExecutionSource: null },
  });
  const execute = new core.WorkflowExecute(additionalData(pkg, options, { hooks }), 'manual', runExecutionData);
  await execute.processRunExecutionData(workflow);
  const run = await done;
  const task = run.data.resultData.runData[node.name]?.[0];
  return { items: task?.data?.main?.[0] ?? [], error: (task?.error ?? run.data.resultData.error) as NodeRun['error'], run };
}

/** A workflow around the trigger node, for its hook and webhook contexts; static data persists on it. */
export function triggerWorkflow(pkg: LoadedPackage, parameters: IDataObject) {
  const node = heraldNode('heraldTrigger', parameters, { webhookId: 'herald-hook' });
  const workflow = new workflowLib.Workflow({
    id: 'wf-2',
    name: 'Herald trigger test',
    nodes: [node],
    connections: {},
    active: true,
    nodeTypes: pkg.nodeTypes,
    settings: {},
  });
  return { node, workflow };
}

/** The node's `default` webhook as n8n's webhook service describes it to the contexts. */
export function webhookData(workflow: N8nWorkflow.Workflow, node: INode, data: IWorkflowExecuteAdditionalData): IWebhookData {
  const description = workflow.nodeTypes.getByNameAndVersion(node.type, node.typeVersion).description.webhooks?.find((w) => w.name === 'default');
  if (!description) throw new Error('the trigger declares no default webhook');
  return {
    httpMethod: description.httpMethod as IWebhookData['httpMethod'],
    node: node.name,
    path: workflowLib.NodeHelpers.getNodeWebhookPath(workflow.id, node, String(description.path)),
    webhookDescription: description,
    workflowId: workflow.id,
    workflowExecuteAdditionalData: data,
    webhookId: node.webhookId,
  };
}

/** The hook context n8n gives checkExists/create/delete on activation. */
export function hookContext(pkg: LoadedPackage, options: HarnessOptions, workflow: N8nWorkflow.Workflow, node: INode) {
  const data = additionalData(pkg, options);
  return new core.HookContext(workflow, node, data, 'trigger', 'activate', webhookData(workflow, node, data));
}

export interface FakeResponse {
  statusCode: number;
  body: unknown;
  status(code: number): FakeResponse;
  json(body: unknown): FakeResponse;
  send(body: unknown): FakeResponse;
  end(): FakeResponse;
}

/** The webhook context for one delivery: the request as n8n's server hands it over (headers, parsed body, raw bytes). */
export function webhookContext(
  pkg: LoadedPackage,
  options: HarnessOptions,
  workflow: N8nWorkflow.Workflow,
  node: INode,
  delivery: { headers: Record<string, string>; body: Buffer },
) {
  const response: FakeResponse = {
    statusCode: 200,
    body: undefined,
    status(code) {
      this.statusCode = code;
      return this;
    },
    json(body) {
      this.body = body;
      return this;
    },
    send(body) {
      this.body = body;
      return this;
    },
    end() {
      return this;
    },
  };
  const request = { headers: delivery.headers, body: JSON.parse(delivery.body.toString('utf8')), rawBody: delivery.body, query: {}, params: {} };
  const data = additionalData(pkg, options, {
    httpRequest: request as unknown as IWorkflowExecuteAdditionalData['httpRequest'],
    httpResponse: response as unknown as IWorkflowExecuteAdditionalData['httpResponse'],
  });
  const context = new core.WebhookContext(workflow, node, data, 'webhook', webhookData(workflow, node, data), [], null);
  return { context, response };
}
