// Web Crypto: global in browsers and Node 19+; Node 18 has it as node:crypto's webcrypto.
// The module name goes through a variable so bundlers for the browser leave it alone.
let cached;
export function webCrypto() {
    const global = globalThis.crypto;
    if (global?.subtle)
        return Promise.resolve(global);
    const name = 'node:crypto';
    cached ??= import(name).then((m) => m.webcrypto);
    return cached;
}
export async function randomUUID() {
    return (await webCrypto()).randomUUID();
}
