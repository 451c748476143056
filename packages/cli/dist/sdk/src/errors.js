export class HeraldError extends Error {
    name = 'HeraldError';
    /** The HTTP status; 0 when no answer came. */
    status;
    /** A stable code to switch on. */
    code;
    /** The offending input (a body path or a header name), when Herald names one. */
    field;
    /** The answer's X-Request-Id: quote it to Herald's operators. */
    requestId;
    /** Every message of a flat 400 (one per problem). */
    messages;
    /** Retry-After of the answer, in seconds, when it had one. */
    retryAfter;
    /** The parsed body (or its text). */
    body;
    constructor(init) {
        super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
        this.status = init.status;
        this.code = init.code;
        this.field = init.field;
        this.requestId = init.requestId;
        this.messages = init.messages ?? [init.message];
        this.retryAfter = init.retryAfter;
        this.body = init.body;
    }
    /** Reads a non-2xx answer (consumes its body). */
    static async fromResponse(res) {
        const text = await res.text().catch(() => '');
        let body = text;
        try {
            body = JSON.parse(text);
        }
        catch {
            // not JSON: kept as text
        }
        const common = { status: res.status, requestId: res.headers.get('x-request-id') ?? undefined, retryAfter: retryAfterSeconds(res.headers), body };
        const envelope = body?.error;
        if (envelope && typeof envelope === 'object' && typeof envelope.code === 'string') {
            return new HeraldError({
                ...common,
                code: envelope.code,
                message: String(envelope.message ?? envelope.code),
                field: typeof envelope.field === 'string' ? envelope.field : undefined,
            });
        }
        const flat = body;
        if (flat && typeof flat === 'object' && typeof flat.error === 'string') {
            const messages = Array.isArray(flat.message) ? flat.message.map(String) : [String(flat.message ?? flat.error)];
            const code = (res.status === 429 ? 'RATE_LIMITED' : flat.error.toUpperCase().replace(/[^A-Z]+/g, '_'));
            return new HeraldError({ ...common, code, message: messages.join('; '), messages });
        }
        return new HeraldError({ ...common, code: 'HTTP_ERROR', message: `Herald answered ${res.status}${text ? `: ${text.slice(0, 200)}` : ''}` });
    }
}
/** Retry-After as seconds (delta-seconds or an HTTP date), or undefined. */
export function retryAfterSeconds(headers) {
    const value = headers.get('retry-after')?.trim();
    if (!value)
        return undefined;
    if (/^\d+$/.test(value))
        return Number(value);
    const at = Date.parse(value);
    return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}
