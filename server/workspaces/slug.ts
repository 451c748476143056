// Slugs derived from names: lower-case ASCII, digits and single hyphens, 2 to 40 chars. Also
// imported by the app's new-client form for its live preview, so it uses only Web APIs.

function randomHex(bytes: number): string {
  const b = new Uint8Array(bytes);
  globalThis.crypto.getRandomValues(b);
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}

/** The name reduced to slug characters; may be shorter than a slug's 2 characters. */
export function slugBase(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/g, '');
}

export function slugify(name: string): string {
  const base = slugBase(name);
  return base.length >= 2 ? base : `ws-${randomHex(3)}`;
}

/** A derived slug that is taken gets a short random suffix (an explicit one is refused). */
export function withSuffix(slug: string): string {
  const suffix = randomHex(3);
  return `${slug.slice(0, 40 - suffix.length - 1).replace(/-+$/g, '')}-${suffix}`;
}
