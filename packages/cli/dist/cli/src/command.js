export const GLOBAL_OPTIONS = {
    json: { type: 'boolean', description: 'Machine-readable JSON on stdout (errors as JSON on stderr)' },
    'base-url': { type: 'string', value: 'url', description: 'Herald’s address (default: HERALD_BASE_URL, the config file, http://localhost:3000)' },
    workspace: { type: 'string', value: 'id', description: 'Act for a managed workspace (agency keys; X-Service-Workspace; also HERALD_WORKSPACE)' },
    help: { type: 'boolean', short: 'h', description: 'This help' },
};
export const str = (values, name) => {
    const value = values[name];
    return typeof value === 'string' ? value : undefined;
};
export const list = (values, name) => {
    const value = values[name];
    return Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
};
