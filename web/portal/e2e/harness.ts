import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';
import { expect } from 'vitest';
import { loadConfig, startRuntime, type Runtime } from '@claims/api';

export const CHROMIUM = '/usr/bin/chromium';
const DIST = path.resolve(import.meta.dirname, '../dist/index.html');

export interface Harness {
  runtime: Runtime;
  browser: Browser;
  baseUrl: string;
  /** A fresh browser context (no stored order) with CSP and console errors collected. */
  newPage(): Promise<{ page: Page; context: BrowserContext; problems: string[] }>;
  stop(): Promise<void>;
}

/** The real server in-process (PGlite in a temp folder, demo data seeded) and Debian's Chromium. */
export async function startHarness(): Promise<Harness> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: run infra/scripts/chromium.sh`);
  if (!existsSync(DIST)) throw new Error('The portal is not built: run `npm run build -w web/portal`');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-e2e-'));
  const runtime = await startRuntime(loadConfig({
    ...process.env, DATA_DIR: dataDir, PORT: '0', SEED_DEMO: 'true', DATABASE_URL: '', KAFKA_BROKERS: '', LOG_LEVEL: 'warn',
    // Every test browses from 127.0.0.1: the per-address limits are lifted, the per-order ones (10 lookups, 5 filings) kept.
    RATE_LIMIT_ENABLED: 'true', RATE_LIMIT_LOOKUP_PER_IP: '1000', RATE_LIMIT_FILING_PER_IP: '1000',
    RATE_LIMIT_LOOKUP_PER_ORDER: '10', RATE_LIMIT_FILING_PER_ORDER: '5', SENTRY_DSN: '', SENTRY_ENVIRONMENT: '',
  }));
  const { port } = runtime.app.server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
  });
  return {
    runtime,
    browser,
    baseUrl,
    async newPage() {
      const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 390, height: 844 } });
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('console', (message) => {
        const text = message.text();
        // A 404 answer the portal handles (lookup no-match, no saved session) is logged by Chromium; it is not a defect.
        if (message.type() === 'error' && !/status of 404/.test(text)) problems.push(text);
      });
      page.on('pageerror', (error) => problems.push(error.message));
      return { page, context, problems };
    },
    async stop() {
      await browser.close();
      await runtime.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Fails on any WCAG 2.x A or AA violation on the page as it is now. */
export async function expectAccessible(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze();
  const summary = results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
  expect(summary).toEqual([]);
}

/** A valid 1×1 PNG. */
export const PNG_1PX = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

export async function lookUp(page: Page, order: string, email: string): Promise<void> {
  await page.goto('/start');
  await page.getByLabel('Order number').fill(order);
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
}
