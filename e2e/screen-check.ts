// The check every staff screen passes at each viewport: no serious or critical accessibility
// violation (axe), nothing wider than the screen, and its screenshot for the README
// (docs/screenshots/app-<name>-<viewport>.png).
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

const OUT = path.resolve('docs/screenshots');
export const VIEWPORTS = { desktop: { width: 1280, height: 900 }, mobile: { width: 375, height: 812 } } as const;
export type Viewport = keyof typeof VIEWPORTS;

const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * axe on the page as a person gets it. Next streams a dynamic page's metadata after the first
 * bytes, so the <title> can arrive a moment after the content: wait for it, or axe may judge
 * the page between the two (document-title). `tags`: the WCAG 2.0/2.1 A and AA rules unless
 * told otherwise.
 */
export async function analyzeAccessibility(page: Page, tags: string[] | 'every rule' = WCAG) {
  await expect(page).toHaveTitle(/\S/);
  const axe = new AxeBuilder({ page });
  return (tags === 'every rule' ? axe : axe.withTags(tags)).analyze();
}

export async function check(page: Page, name: string, viewport: Viewport) {
  const results = await analyzeAccessibility(page);
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    `${name} (${viewport})`,
  ).toEqual([]);
  const wide = await page.evaluate(() => {
    const limit = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth <= limit) return [];
    return [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > limit + 1)
      .slice(0, 3)
      .map((el) => `${el.tagName.toLowerCase()}.${String(el.className).split(' ').slice(0, 4).join('.')}`);
  });
  expect(wide, `${name} (${viewport}) is wider than the screen`).toEqual([]);
  await page.screenshot({ path: path.join(OUT, `app-${name}-${viewport}.png`), fullPage: true });
}
