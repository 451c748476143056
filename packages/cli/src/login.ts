// herald login / logout: the key is checked with one cheap authenticated call (GET /settings)
// before it is stored.
import { createHerald, HeraldError } from '../../sdk/src/index.js';
import { str, type Command } from './command.js';
import { configPath, DEFAULT_BASE_URL, maskKey, readConfig, removeConfig, writeConfig } from './config.js';
import { CliError, EXIT, usage } from './errors.js';
import { ask, line, printJson } from './output.js';

export const login: Command = {
  words: ['login'],
  summary: 'Check an API key and store it in the config file',
  options: {
    key: { type: 'string', value: 'sk_live_…', description: 'The key (asked for on a terminal when absent)' },
  },
  details: `Stores the key, the base URL and --workspace in ${'$XDG_CONFIG_HOME/herald/config.json'} (or ~/.config/herald/config.json; %APPDATA%\\herald\\config.json on Windows), mode 0600.`,
  async run(ctx) {
    const file = configPath(ctx.env);
    const stored = readConfig(file);
    const interactive = Boolean(ctx.io.stdin.isTTY);
    let baseUrl = str(ctx.values, 'base-url') || ctx.env.HERALD_BASE_URL || stored.baseUrl;
    if (!baseUrl && interactive) baseUrl = (await ask(ctx.io, `Herald URL [${DEFAULT_BASE_URL}]: `)) || DEFAULT_BASE_URL;
    baseUrl ||= DEFAULT_BASE_URL;
    let key = str(ctx.values, 'key');
    if (!key && interactive) key = await ask(ctx.io, 'API key (sk_live_…): ', { hidden: true });
    if (!key) throw usage('No key: pass --key sk_live_… (or run herald login on a terminal)');
    const workspaceId = str(ctx.values, 'workspace') || undefined;

    const herald = createHerald({ apiKey: key, baseUrl, workspaceId });
    let workspace: { workspaceId: string; name: string } | undefined;
    try {
      workspace = (await herald.request('GET', '/settings')).data;
    } catch (error) {
      // A key without the settings scope still authenticated: it is valid.
      if (!(error instanceof HeraldError && error.status === 403 && error.code !== 'UNAUTHORIZED')) {
        if (error instanceof HeraldError && error.status === 401) {
          throw new CliError(error.code, `Herald refused the key: ${error.message}`, EXIT.AUTH_OR_NETWORK);
        }
        throw error;
      }
    }
    writeConfig({ apiKey: key, baseUrl, ...(workspaceId ? { workspaceId } : {}) }, file);
    const result = {
      baseUrl,
      configPath: file,
      key: maskKey(key),
      workspaceId: workspace?.workspaceId ?? workspaceId ?? null,
      workspaceName: workspace?.name ?? null,
    };
    if (ctx.json) printJson(ctx.io, result);
    else
      line(
        ctx.io.stdout,
        `Logged in to ${baseUrl}${workspace ? ` as workspace “${workspace.name}” (${workspace.workspaceId})` : ''}. Key ${result.key} saved in ${file}.`,
      );
  },
};

export const logout: Command = {
  words: ['logout'],
  summary: 'Remove the stored key',
  options: {},
  async run(ctx) {
    const file = configPath(ctx.env);
    const removed = removeConfig(file);
    if (ctx.json) printJson(ctx.io, { loggedOut: removed, configPath: file });
    else line(ctx.io.stdout, removed ? `Logged out: removed ${file}.` : `Not logged in (no ${file}).`);
    if (ctx.env.HERALD_API_KEY && !ctx.json) line(ctx.io.stderr, 'Note: HERALD_API_KEY is set in this environment and still applies.');
  },
};
