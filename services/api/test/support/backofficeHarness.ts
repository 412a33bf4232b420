import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import os from 'node:os';
import path from 'node:path';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { z } from 'zod';
import { FileClaimResponse, ROLES, type FileClaimRequest, type Permission, type RoleName } from '@claims/contracts';
import { streamsBehind, type Projection } from '@claims/projections';
import { loadConfig, startRuntime, type Runtime, type RuntimeOptions } from '../../src/index.js';
import { createTestDatabase } from '../../../../test/support/testDatabase.js';
import { postgresServer } from '../../../../test/support/postgresServers.js';

/** What the back-office's own pages send as Origin when served by the app (inject's Host is localhost:80). */
export const OWN_ORIGIN = 'http://localhost';
export const EVIL_ORIGIN = 'https://evil.example';
export const DEMO_PASSWORD = 'demo-pass-1234';

export const DEMO_USERS = {
  admin: 'admin@orderprotection.test',
  support: 'support@orderprotection.test',
  finance: 'finance@orderprotection.test',
  acmeOwner: 'owner@acme.test',
  acmeAgent: 'agent@acme.test',
  acmeViewer: 'viewer@acme.test',
  kumoOwner: 'owner@kumo.test',
} as const;
export type DemoUser = keyof typeof DEMO_USERS;

/** The demo users' grants as demo.json gives them (independent of the server's answer): role, and the stores it holds. */
export const DEMO_ROLES: Record<DemoUser, RoleName> = {
  admin: 'orderprotection_admin',
  support: 'orderprotection_support',
  finance: 'orderprotection_finance',
  acmeOwner: 'account_owner',
  acmeAgent: 'store_support',
  acmeViewer: 'store_user',
  kumoOwner: 'store_owner',
};
export const DEMO_SCOPES: Record<DemoUser, 'all' | 'acme' | 'kumo'> = {
  admin: 'all',
  support: 'all',
  finance: 'all',
  acmeOwner: 'acme',
  acmeAgent: 'acme',
  acmeViewer: 'acme',
  kumoOwner: 'kumo',
};

export type DemoStore = 'acme' | 'kumo';
export const DEMO_USER_NAMES = Object.keys(DEMO_USERS) as DemoUser[];
export const DEMO_STORES: readonly DemoStore[] = ['acme', 'kumo'];

/** Whether the demo user's role grants `permission` (contracts' ROLES, not the server's answer). */
export const demoUserHolds = (user: DemoUser, permission: Permission) =>
  ROLES[DEMO_ROLES[user]].permissions.includes(permission);

/**
 * What the permission table says a demo user's request on a store answers: 404 where the store is invisible to them,
 * 403 where it is visible but they lack one of the permissions `needs`, else `allowed`.
 */
export function statusByTable(
  user: DemoUser,
  needs: Permission | Permission[],
  store: DemoStore,
  allowed: number,
): number {
  const scope = DEMO_SCOPES[user];
  if (scope !== 'all' && scope !== store) return 404;
  return [needs].flat().every((p) => demoUserHolds(user, p)) ? allowed : 403;
}

export interface Harness {
  runtime: Runtime;
  stop(): Promise<void>;
  call(options: CallOptions): Promise<LightMyRequestResponse>;
  login(user: DemoUser): Promise<string>;
  /** Signs in with the demo password as any user of the demo data (one outside DEMO_USERS too); answers the session cookie. */
  loginWith(email: string): Promise<string>;
  storeId(slug: 'acme' | 'kumo'): Promise<string>;
  fileClaim(sourceOrderId: string, body: FileClaimRequest): Promise<z.infer<typeof FileClaimResponse>>;
  /** Resolves a claim through the desk's route as the holder of `cookie`; anything but 200 throws with the answer. */
  resolveClaim(cookie: string | undefined, claimId: string, body: unknown): Promise<LightMyRequestResponse>;
  /** Invites someone to a store's team as the holder of `cookie`; anything but 201 throws with the answer. */
  invite(
    cookie: string | undefined,
    storeId: string,
    member: { email: string; name: string; role: RoleName },
  ): Promise<LightMyRequestResponse>;
}

export interface CallOptions {
  method: NonNullable<InjectOptions['method']>;
  url: string;
  cookie?: string | undefined;
  token?: string | undefined;
  origin?: string | null | undefined;
  body?: unknown;
  headers?: Record<string, string>;
  /** The socket's peer address (inject's default is 127.0.0.1). */
  remoteAddress?: string;
}

/** Starts the whole product in-process on a fresh PostgreSQL database holding the demo data; `env` adds settings, `options` e.g. a clock. */
export async function startHarness(env: NodeJS.ProcessEnv = {}, options: RuntimeOptions = {}): Promise<Harness> {
  // The demo's dates are relative to the clock: a test with a clock of its own seeds itself, one without any seed stays empty.
  const seed = env.SEED_DEMO !== 'false';
  const seeded = seed && options.now === undefined;
  const server = postgresServer();
  const database = await createTestDatabase(
    server.databaseUrl,
    seeded ? server.seededTemplate : server.migratedTemplate,
  );
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'claims-backoffice-'));
  const runtime = await startRuntime(
    loadConfig({
      ...process.env,
      DATABASE_URL: database.url,
      KAFKA_BROKERS: '',
      DATA_DIR: dataDir,
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      DEMO_FIXTURE: path.resolve(import.meta.dirname, '../../../../fixtures/demo.json'),
      ...env,
      SEED_DEMO: String(seed && !seeded),
    }),
    { listen: false, ...options },
  );
  const stores = new Map<string, string>();

  const call = (o: CallOptions) => {
    const headers: Record<string, string> = { ...o.headers };
    if (o.cookie) headers.cookie = o.cookie;
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    // Cookie-authenticated state changes come from our own pages unless a test says otherwise.
    const origin = o.origin === undefined ? (o.cookie && o.method !== 'GET' ? OWN_ORIGIN : null) : o.origin;
    if (origin) headers.origin = origin;
    return runtime.app.inject({
      method: o.method,
      url: o.url,
      headers,
      ...(o.remoteAddress ? { remoteAddress: o.remoteAddress } : {}),
      ...(o.body === undefined
        ? {}
        : { payload: JSON.stringify(o.body), headers: { ...headers, 'content-type': 'application/json' } }),
    });
  };

  const loginWith = async (email: string) => {
    const response = await call({ method: 'POST', url: '/api/auth/login', body: { email, password: DEMO_PASSWORD } });
    if (response.statusCode !== 200)
      throw new Error(`login of ${email} answered ${response.statusCode}: ${response.body}`);
    return String(response.headers['set-cookie']).split(';')[0]!;
  };

  return {
    runtime,
    call,
    async stop() {
      await runtime.stop();
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
    login: (user) => loginWith(DEMO_USERS[user]),
    loginWith,
    async storeId(slug) {
      let id = stores.get(slug);
      if (!id) {
        const response = await runtime.app.inject({ method: 'GET', url: `/api/whitelabel/settings?store=${slug}` });
        id = (JSON.parse(response.body) as { storeId: string }).storeId;
        stores.set(slug, id);
      }
      return id;
    },
    async fileClaim(sourceOrderId, body) {
      const response = await call({ method: 'POST', url: `/api/claims/${sourceOrderId}`, body });
      if (response.statusCode !== 201)
        throw new Error(`filing on ${sourceOrderId} answered ${response.statusCode}: ${response.body}`);
      return FileClaimResponse.parse(JSON.parse(response.body));
    },
    async invite(cookie, storeId, member) {
      const response = await call({
        method: 'POST',
        url: `/api/admin/stores/${storeId}/team-members`,
        cookie,
        body: member,
      });
      if (response.statusCode !== 201)
        throw new Error(`inviting ${member.email} answered ${response.statusCode}: ${response.body}`);
      return response;
    },
    async resolveClaim(cookie, claimId, body) {
      const response = await call({ method: 'POST', url: `/api/admin/claims/${claimId}/resolve`, cookie, body });
      if (response.statusCode !== 200)
        throw new Error(`resolving ${claimId} answered ${response.statusCode}: ${response.body}`);
      return response;
    },
  };
}

/** A one-item claim body for a demo order, without photos (a claim's photo must be a file uploaded for its order). */
export function oneItemClaim(
  email: string,
  sourceFulfillmentId: string,
  sourceItemId: string,
  desiredMethod: FileClaimRequest['resolution']['desiredMethod'] = 'RESHIP',
): FileClaimRequest {
  return {
    email,
    fulfillmentIssues: [
      {
        sourceFulfillmentId,
        issues: [{ sourceItemId, claimType: 'DAMAGED', quantity: 1, details: 'Arrived broken.', images: [] }],
      },
    ],
    resolution: { desiredMethod, customerSignature: 'A Shopper', updatedShippingAddress: null },
  };
}

export const json = <T = unknown>(response: LightMyRequestResponse): T => JSON.parse(response.body) as T;

/** The projections among `projections` that have not applied every event they handle yet, each with streams it lags on. */
export async function projectionsBehind(
  db: Runtime['ctx']['database']['db'],
  projections: readonly Projection[],
): Promise<string[]> {
  const behind: string[] = [];
  for (const projection of projections) {
    const streams = await streamsBehind(db, projection);
    if (streams.length > 0) behind.push(`${projection.name} (${streams.map((s) => s.streamId).join(', ')})`);
  }
  return behind;
}

/**
 * Until each of `projections` has applied every event it handles: on a PostgreSQL server others use too, a transaction
 * open elsewhere holds the store's readers back (they read below its horizon), so one settle may end before the last
 * events are readable.
 */
export async function projectionsCaughtUp(h: Harness, projections: readonly Projection[]): Promise<void> {
  for (;;) {
    await h.runtime.settle();
    if ((await projectionsBehind(h.runtime.ctx.database.db, projections)).length === 0) return;
    await sleep(50);
  }
}
