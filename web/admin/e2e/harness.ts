import { existsSync } from 'node:fs';
import path from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import {
  CustomerOrder,
  FileClaimResponse,
  MeResponse,
  UploadUrlResponse,
  type CustomerResolution,
  type FileClaimRequest,
} from '@claims/contracts';
import type { RuntimeOptions } from '@claims/api';
import {
  CHROMIUM,
  collectProblems,
  expectAccessible,
  startBrowserHarness,
  startedForFile,
  type BrowserHarness,
} from '../../../test/support/browserHarness.js';
import { demoClaim, itemIssue, type ItemIssue } from '../../../test/support/seededDemo.js';
import { addItemIssue, lookUp } from '../../portal/e2e/harness.js';

export { CHROMIUM, expectAccessible, itemIssue };
const ADMIN_DIST = path.resolve(import.meta.dirname, '../dist/index.html');
const PORTAL_DIST = path.resolve(import.meta.dirname, '../../portal/dist/index.html');

/** A failed request the page expects (e.g. GET /api/auth/me before signing in answers 401). */
export interface ExpectedFailure {
  status: number;
  path: string;
}

export interface AdminPage {
  page: Page;
  context: BrowserContext;
  /** Console errors, page errors and CSP violations; a test ends with `expect(problems).toEqual([])`. */
  problems: string[];
}

export interface Harness extends BrowserHarness {
  /** `expected`: failed requests the test provokes, besides the signed-out GET /api/auth/me. */
  newPage(expected?: ExpectedFailure[]): Promise<AdminPage>;
}

/** Before signing in, the app asks who is signed in: that 401 is the expected answer. */
const SIGNED_OUT: ExpectedFailure[] = [{ status: 401, path: '/api/auth/me' }];

/** The back-office's browser harness; `options` e.g. the server's clock. */
/** `env`: settings of the test's own (an SMTP_URL), over the harness's. */
export async function startHarness({
  env = {},
  ...options
}: Pick<RuntimeOptions, 'now'> & { env?: Record<string, string> } = {}): Promise<Harness> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: run infra/scripts/chromium.sh`);
  if (!existsSync(ADMIN_DIST)) throw new Error('The back-office is not built: run `npm run build -w web/admin`');
  if (!existsSync(PORTAL_DIST))
    throw new Error('The portal is not built (it serves the demo product images): run `npm run build -w web/portal`');
  const harness = await startBrowserHarness(
    'admin',
    {
      // Every shopper of these tests is 127.0.0.1: the per-address limits would stop the setup; the per-order ones stay.
      RATE_LIMIT_LOOKUP_PER_IP: '1000',
      RATE_LIMIT_FILING_PER_IP: '1000',
      RATE_LIMIT_UPLOAD_PER_IP: '1000',
      RATE_LIMIT_RECOVERY_PER_IP: '1000',
      ...env,
    },
    options,
  );
  return {
    ...harness,
    async newPage(extra: ExpectedFailure[] = []) {
      const expected = [...SIGNED_OUT, ...extra];
      const context = await harness.browser.newContext({
        baseURL: harness.baseUrl,
        viewport: { width: 1280, height: 900 },
        acceptDownloads: true,
      });
      // Report every CSP violation as a console error (Chromium logs most, this catches the rest).
      await context.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (event) => {
          console.error(`CSP violation: ${event.violatedDirective} blocked ${event.blockedURI || 'inline'}`);
        });
      });
      const page = await context.newPage();
      const problems = collectProblems(page, (text, where) => {
        const status = /status of (\d{3})/.exec(text)?.[1];
        return status !== undefined && expected.some((e) => String(e.status) === status && where.includes(e.path));
      });
      return { page, context, problems };
    },
  };
}

/** The back-office's harness for one test file: started before its tests (with `options`), stopped after them. */
export const fileHarness = (options: Pick<RuntimeOptions, 'now'> = {}): Harness =>
  startedForFile(() => startHarness(options));

/** A computed style read through a frame can take seconds on a loaded machine: polls longer than the default second. */
export const eventually = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 20_000 });

/**
 * A shopper on the portal, from the order lookup to the resolution choice, with one damaged item. Each visit takes an
 * order of its own: the portal keeps a draft per order and would bring a second visit back to where the first left off.
 */
export async function shopperAtResolution(page: Page, order: string, email: string): Promise<void> {
  await lookUp(page, order, email);
  await page.waitForURL('**/issues');
  await addItemIssue(page, 'DAMAGED');
  await page.getByRole('radio', { name: /Reship them to me/ }).waitFor();
}

export const PASSWORD = 'demo-pass-1234';

/** Signs in through the form and waits for the queue. */
export async function signIn(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.goto('/admin/');
  await page.waitForURL('**/admin/sign-in**');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'All claims' }).waitFor();
}

/** A valid solid-colour PNG (8-bit RGB), so the browser really decodes it. */
export function solidPng(width: number, height: number, [r, g, b]: readonly [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3).map((_, i) => [r, g, b][i % 3]!)]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * Uploads a photo the way the portal does while filing: looks the order up, asks for a signed URL
 * with the order's proof (its systemOrderId and email), then PUTs the file; returns its public URL.
 */
export async function uploadPhoto(
  baseUrl: string,
  order: { orderNumber: string; email: string },
  name: string,
  bytes: Buffer,
): Promise<string> {
  const lookup = new URL('/api/order-lookup', baseUrl);
  lookup.search = new URLSearchParams({ order: order.orderNumber, email: order.email }).toString();
  const found = CustomerOrder.parse(await (await fetch(lookup)).json());
  const signed = UploadUrlResponse.parse(
    await (
      await fetch(`${baseUrl}/api/media/upload-url`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          contentType: 'image/png',
          filename: name,
          mediaType: 'CLAIM',
          orderId: found.systemOrderId,
          email: order.email,
        }),
      })
    ).json(),
  );
  const put = await fetch(new URL(signed.signedUrl, baseUrl), {
    method: 'PUT',
    headers: { 'content-type': 'image/png' },
    body: new Uint8Array(bytes),
  });
  if (!put.ok) throw new Error(`upload failed: ${put.status} ${await put.text()}`);
  return signed.publicUrl;
}

/** Files a claim through the customer API (docs/product.md#http-client), as a shopper would. */
export async function fileClaim(baseUrl: string, sourceOrderId: string, body: FileClaimRequest) {
  const response = await fetch(`${baseUrl}/api/claims/${encodeURIComponent(sourceOrderId)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (response.status !== 201) throw new Error(`filing failed: ${response.status} ${await response.text()}`);
  return FileClaimResponse.parse(await response.json());
}

/** Files a claim on a demo order's first shipment through the customer API, as its shopper would ({@link demoClaim}). */
export const fileDemoClaim = (
  baseUrl: string,
  sourceOrderId: string,
  desiredMethod: CustomerResolution,
  ...issues: ItemIssue[]
) => fileClaim(baseUrl, sourceOrderId, demoClaim(sourceOrderId, desiredMethod, ...issues));

export const heading = (page: Page) => page.getByRole('heading', { level: 1 });

/** Opens the signed-in user's menu (their profile, the theme, sign-out) and answers it. */
export async function openUserMenu(page: Page) {
  const button = page.getByRole('button', { name: /^Account: / });
  if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click();
  const menu = page.locator(`[id="${await button.getAttribute('aria-controls')}"]`);
  await menu.waitFor();
  return menu;
}

/** A claim-page tool, folded under its heading until opened (and open when left open before): opens it and answers its region. */
export async function openTool(page: Page, name: string) {
  const tool = page.getByRole('region', { name });
  await tool.locator('summary').waitFor();
  if ((await tool.locator('details[open]').count()) === 0) await tool.locator('summary').click();
  await tool.locator('details[open]').waitFor();
  return tool;
}

/** A signed-in API session for arranging and checking state behind the page's back (cookie + our own Origin). */
export async function apiSession(baseUrl: string, email: string) {
  const login = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  expect(login.status).toBe(200);
  const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
  return {
    me: MeResponse.parse(await login.json()),
    get: async (path: string) => fetch(`${baseUrl}${path}`, { headers: { cookie } }),
    post: async (path: string, body: unknown) =>
      fetch(`${baseUrl}${path}`, {
        method: 'POST',
        headers: { cookie, origin: baseUrl, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
  };
}
