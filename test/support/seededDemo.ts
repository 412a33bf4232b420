import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import {
  ClaimIssueInput,
  DemoData,
  type CustomerResolution,
  type DemoOrder,
  type FileClaimRequest,
} from '@claims/contracts';
import { loadConfig, startRuntime, type Runtime, type RuntimeOptions } from '../../services/api/src/index.js';
import { createTestDatabase } from './testDatabase.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A DATA_DIR whose PGlite database is migrated and holds the demo data: runtimes start from copies of it. */
    seededDataDir: string;
  }
}

const DEMO_FIXTURE = path.resolve(import.meta.dirname, '../../fixtures/demo.json');

/**
 * The demo seed, run once for a whole test run rather than by every runtime a test starts: on PGlite it takes
 * 10–45 s on the two-core CI machine, a copy of its folder a fraction of a second. No workers: each copy's
 * own start projects the seed and sets its reactions' checkpoints, as after a seed of its own.
 */
async function seed(env: Record<string, string>): Promise<void> {
  const runtime = await startRuntime(
    loadConfig({
      ...process.env,
      PORT: '0',
      KAFKA_BROKERS: '',
      LOG_LEVEL: 'silent',
      SEED_DEMO: 'true',
      DEMO_FIXTURE,
      ...env,
    }),
    { listen: false, workers: false },
  );
  await runtime.stop();
}

/** The seeded PGlite folder (globalSetup); `remove` deletes it. */
export async function seedDataDirOnce(): Promise<{ dir: string; remove: () => void }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'claims-seeded-'));
  await seed({ DATA_DIR: dir, DATABASE_URL: '' });
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A copy of the migrated template with the demo seeded into it (globalSetup), for PostgreSQL runtimes to copy in turn. */
export async function seedTemplateOnce(
  serverUrl: string,
  migratedTemplate: string,
): Promise<{ name: string; drop: () => Promise<void> }> {
  const database = await createTestDatabase(serverUrl, migratedTemplate);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'claims-seeding-'));
  try {
    await seed({ DATA_DIR: dataDir, DATABASE_URL: database.url });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  return database;
}

/**
 * A fresh DATA_DIR for a runtime: with the seeded PGlite database in it, or empty when the test keeps a clock of
 * its own (the demo's dates are relative to the clock, so such a runtime seeds itself). `seeded` says which:
 * the runtime's SEED_DEMO is its negation.
 */
export function newDataDir(prefix: string, ownClock: boolean): { dataDir: string; seeded: boolean } {
  const dataDir = mkdtempSync(path.join(tmpdir(), `${prefix}-`));
  if (ownClock) return { dataDir, seeded: false };
  cpSync(inject('seededDataDir'), dataDir, { recursive: true });
  return { dataDir, seeded: true };
}

/**
 * The whole product in-process on a fresh PGlite data folder holding the demo data (see newDataDir), `env` over its
 * settings; `stop` stops it and deletes the folder.
 */
export async function startPgliteDemo(
  prefix: string,
  env: Record<string, string>,
  options: RuntimeOptions,
): Promise<{ runtime: Runtime; dataDir: string; stop(): Promise<void> }> {
  const { dataDir, seeded } = newDataDir(prefix, options.now !== undefined);
  const runtime = await startRuntime(
    loadConfig({
      ...process.env,
      DATA_DIR: dataDir,
      PORT: '0',
      SEED_DEMO: String(!seeded),
      DATABASE_URL: '',
      KAFKA_BROKERS: '',
      ...env,
    }),
    options,
  );
  return {
    runtime,
    dataDir,
    async stop() {
      await runtime.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Ava's claim on her demo order 1001 (one defective item, reshipped), signed as given. */
export const avasClaim = (
  customerSignature: FileClaimRequest['resolution']['customerSignature'] = 'Ava Stone',
): FileClaimRequest => ({
  email: 'ava@example.com',
  fulfillmentIssues: [
    {
      sourceFulfillmentId: 'f-1001-1',
      issues: [{ sourceItemId: 'li-1', claimType: 'DEFECTIVE_ITEM', quantity: 1, details: 'Zip broke', images: [] }],
    },
  ],
  resolution: { desiredMethod: 'RESHIP', customerSignature },
});

const DEMO_ORDERS = DemoData.parse(JSON.parse(readFileSync(DEMO_FIXTURE, 'utf8'))).orders;

/** A demo order by its id on the store's platform, as fixtures/demo.json holds it. */
export function demoOrder(sourceOrderId: string): DemoOrder {
  const order = DEMO_ORDERS.find((o) => o.sourceOrderId === sourceOrderId);
  if (!order) throw new Error(`fixtures/demo.json has no order ${sourceOrderId}`);
  return order;
}

/** One item's issue as a shopper reports it: no details and no photos unless given. */
export type ItemIssue = Omit<ClaimIssueInput, 'details' | 'images'> & Partial<ClaimIssueInput>;

/** An item's issue: `quantity` of it, with `details` but no photos. */
export const itemIssue = (
  sourceItemId: string,
  claimType: ClaimIssueInput['claimType'],
  quantity = 1,
  details = '',
): ItemIssue => ({ sourceItemId, claimType, quantity, details });

/**
 * A claim on the first shipment of a demo order, as its shopper files it: with the order's email, signed with the
 * name it ships to (fixtures/demo.json).
 */
export function demoClaim(
  sourceOrderId: string,
  desiredMethod: CustomerResolution,
  ...issues: ItemIssue[]
): FileClaimRequest {
  const order = demoOrder(sourceOrderId);
  const shipment = order.fulfillments[0];
  if (!shipment) throw new Error(`The demo order ${sourceOrderId} has not shipped`);
  return {
    email: order.customerEmail,
    fulfillmentIssues: [
      { sourceFulfillmentId: shipment.sourceFulfillmentId, issues: issues.map((i) => ClaimIssueInput.parse(i)) },
    ],
    resolution: { desiredMethod, customerSignature: order.shippingAddress.name },
  };
}
