// Slugs derived from names: lower-case ASCII, digits and single hyphens, 2 to 40 chars.
import { randomBytes } from 'node:crypto';

export function slugify(name: string): string {
  const base = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/g, '');
  return base.length >= 2 ? base : `ws-${randomBytes(3).toString('hex')}`;
}

/** A derived slug that is taken gets a short random suffix (an explicit one is refused). */
export function withSuffix(slug: string): string {
  const suffix = randomBytes(3).toString('hex');
  return `${slug.slice(0, 40 - suffix.length - 1).replace(/-+$/g, '')}-${suffix}`;
}
