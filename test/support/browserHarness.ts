import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Runtime, RuntimeOptions } from '@claims/api';
import { startPgliteDemo } from './seededDemo.js';

export const CHROMIUM = '/usr/bin/chromium';

export interface BrowserHarness {
  runtime: Runtime;
  browser: Browser;
  baseUrl: string;
  stop(): Promise<void>;
}

/**
 * The real server in-process (PGlite in a temp folder holding the demo data, rate limits on with `env`'s lifts) and
 * Debian's Chromium: what the back-office's and the portal's browser tests stand on.
 */
export async function startBrowserHarness(
  name: string,
  env: Record<string, string>,
  options: Pick<RuntimeOptions, 'now'> = {},
): Promise<BrowserHarness> {
  const demo = await startPgliteDemo(`${name}-e2e`, { LOG_LEVEL: 'warn', RATE_LIMIT_ENABLED: 'true', ...env }, options);
  const { runtime } = demo;
  const { port } = runtime.app.server.address() as AddressInfo;
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
  });
  return {
    runtime,
    browser,
    baseUrl: `http://127.0.0.1:${port}`,
    async stop() {
      await browser.close();
      await demo.stop();
    },
  };
}

/**
 * A harness started before the file's tests and stopped after them: what every browser-test file stands on. Read
 * its properties from the tests and hooks only (before the file's `beforeAll`, it is not started yet).
 */
export function startedForFile<H extends BrowserHarness>(start: () => Promise<H>): H {
  let started: H | undefined;
  beforeAll(async () => {
    started = await start();
  });
  afterAll(async () => {
    await started?.stop();
  });
  return new Proxy({} as H, {
    get(_, key) {
      if (!started) throw new Error("The harness starts in the file's beforeAll.");
      return Reflect.get(started, key) as unknown;
    },
  });
}

/** The page's console errors (but those `expected` allows: text and the URL it came from) and page errors, as they come. */
export function collectProblems(page: Page, expected: (text: string, where: string) => boolean): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const where = message.location().url;
    if (!expected(message.text(), where)) problems.push(`${message.text()} (${where})`);
  });
  page.on('pageerror', (error) => problems.push(error.message));
  return problems;
}

/** Fails on any WCAG 2.x A or AA violation on the page as it is now; `where` names the page in the failure. */
export async function expectAccessible(page: Page, where?: string): Promise<void> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
    .analyze();
  const summary = results.violations.map(
    (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`,
  );
  expect(summary, where && `axe violations on ${where}`).toEqual([]);
}

/**
 * Answers the page's first `times` requests to `url` 503 database_unavailable with Retry-After: 1, as the API does while
 * PostgreSQL restarts, and lets the later ones through; answers how many it has refused so far.
 */
export async function unavailableAtFirst(page: Page, url: string, times: number): Promise<() => number> {
  let refused = 0;
  await page.route(url, async (route) => {
    if (refused === times) return route.continue();
    refused++;
    return route.fulfill({
      status: 503,
      headers: { 'retry-after': '1', 'content-type': 'application/json' },
      body: JSON.stringify({
        error: 'database_unavailable',
        message: 'Our service is briefly unavailable; please try again in a few seconds.',
      }),
    });
  });
  return () => refused;
}
