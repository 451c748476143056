// Every journey's `test`: Playwright's, plus one rule that holds on every page a test opens —
// the browser console stays free of errors (a hydration mismatch, a script or font the Content
// Security Policy refused, an exception, a resource that failed to load). A test fails on the
// first such error, named with the page it came from.
//
// Allowed by default: the browser's note about an HTTP 4xx answer to a request the page made
// (a form the server refused shows the refusal on the page; the note says nothing more). A
// test that provokes an error on purpose names it: test.use({ allowedConsoleErrors: [/…/] }).
import { test as base, expect, type Page } from '@playwright/test';

const CLIENT_ERROR_NOTE = /^Failed to load resource: the server responded with a status of 4\d\d\b/;

export const test = base.extend<{ allowedConsoleErrors: RegExp[]; consoleStaysClean: void }>({
  allowedConsoleErrors: [[], { option: true }],
  consoleStaysClean: [
    async ({ context, allowedConsoleErrors }, use) => {
      const errors: string[] = [];
      const allowed = (text: string) => CLIENT_ERROR_NOTE.test(text) || allowedConsoleErrors.some((re) => re.test(text));
      const watch = (page: Page) => {
        page.on('console', (message) => {
          if (message.type() === 'error' && !allowed(message.text())) errors.push(`${page.url()}: ${message.text()}`);
        });
        page.on('pageerror', (error) => {
          if (!allowed(error.message)) errors.push(`${page.url()}: ${error.message}`);
        });
      };
      context.pages().forEach(watch);
      context.on('page', watch);
      await use();
      expect(errors, 'errors in the browser console').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
