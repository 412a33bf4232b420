import { setTimeout as sleep } from 'node:timers/promises';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'kysely';
import { z } from 'zod';
import {
  AdminClaimPage,
  AnalyticsResponse,
  ApiClaim,
  CreateApiTokenResponse,
  CreateWebhookEndpointResponse,
  CustomerClaimView,
  FileClaimResponse,
  PayoutEntriesResponse,
  RuleCreatedResponse,
  StoreCreditLedger,
  TimelineResponse,
  currencyDecimals,
  toDecimal,
  toMinor,
  type Claim,
  type ClaimResolution,
  type DomainEvent,
  type FileClaimRequest,
  type RuleInput,
} from '@claims/contracts';
import { readStream, storedDomainEvent, type RecordedEvent } from '@claims/event-store';
import {
  claimDecider,
  isResolvable,
  payoutLinesOf,
  ruleMatches,
  storeCreditOf,
  subjectOfFiled,
  type ClaimStateOrNone,
} from '@claims/domain';
import { checkpointLag, PROJECTIONS, storeHead } from '@claims/projections';
import { loadConfig, startRuntime, type Runtime } from '../../src/index.js';
import { orderBody } from '../../../../test/support/orderBody.js';
import { projectionsBehind } from './backofficeHarness.js';
import { StandardWebhookReceiver } from '../../../../test/support/standardWebhookReceiver.js';
import { testEnvironment, type Mode } from '../../../../test/support/testRuntime.js';
import { REASON, story, type ClaimSpec, type RuleSpec, type Story, type StoryCommand } from './claimStories.js';
import { startSmtp } from '../../../../test/support/smtpServers.js';

/**
 * The model-based test across readers: a story (claimStories.ts) is played through the HTTP API as a shopper and
 * a store's owner would, then every reader of the claims' events is compared with what the fold of each claim's
 * stream (the domain's own `claimDecider.evolve`) implies: the claim list, the timeline, the payout ledger, store
 * credit, the claim page, analytics, API v1, the webhooks an endpoint received and the mail an SMTP server received.
 * A story may run under a live rule of the store, which then decides claims at filing as an agent would: every reader
 * must tell its decision exactly as an agent's, naming the rule where a reader names who decided. `runStory` answers every disagreement as a line naming the invariant, so one run reports them all.
 */

const OWN_ORIGIN = 'http://localhost';
const PASSWORD = 'demo-pass-1234';
/** Longer than any catch-up of a story's events on a quiet machine, shorter than the test's hang guard. */
const SETTLE_TIMEOUT_MS = 60_000;
/** The first catch-up, on the demo's whole history through a fresh topic: within the hook's timeout (vitest.config.ts). */
const FIRST_SETTLE_TIMEOUT_MS = 110_000;

interface Response {
  statusCode: number;
  body: string;
}

/** The product in-process with everything its readers talk to: an SMTP server, a webhook receiver, and who works the claims. */
export interface ReadersWorld {
  runtime: Runtime;
  smtp: Awaited<ReturnType<typeof startSmtp>>;
  receiver: StandardWebhookReceiver;
  acme: string;
  owner: string;
  finance: string;
  /** Acme's API token: it puts orders, registers the webhook endpoint, reads and resolves as an integration would. */
  token: string;
  call(
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    options?: { cookie?: string; token?: string; body?: unknown },
  ): Promise<Response>;
  stop(): Promise<void>;
}

/** Starts the product (its workers on) on a database of the given mode holding the demo data, mail to an SMTP server here, every webhook to a receiver here. */
export async function startReadersWorld(mode: Mode): Promise<ReadersWorld> {
  const smtp = await startSmtp();
  const receiver = new StandardWebhookReceiver();
  const environment = await testEnvironment(mode);
  const runtime = await startRuntime(
    loadConfig({ ...environment.env, SMTP_URL: smtp.url, WEBHOOK_ALLOW_PRIVATE_URLS: 'true' }),
    { listen: false },
  );
  const call: ReadersWorld['call'] = async (method, url, options = {}) => {
    const headers: Record<string, string> = {};
    if (options.cookie) headers.cookie = options.cookie;
    if (options.cookie && method !== 'GET') headers.origin = OWN_ORIGIN;
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const response = await runtime.app.inject({
      method,
      url,
      headers,
      ...(options.body === undefined ? {} : { payload: JSON.stringify(options.body) }),
    });
    return { statusCode: response.statusCode, body: response.body };
  };
  const login = async (email: string) => {
    const response = await runtime.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password: PASSWORD },
    });
    if (response.statusCode !== 200) throw new Error(`login of ${email} answered ${response.statusCode}`);
    return String(response.headers['set-cookie']).split(';')[0]!;
  };
  const owner = await login('owner@acme.test');
  const finance = await login('finance@orderprotection.test');
  const acme = (JSON.parse((await call('GET', '/api/whitelabel/settings?store=acme')).body) as { storeId: string })
    .storeId;
  const created = await call('POST', `/api/stores/${acme}/api-tokens`, {
    cookie: owner,
    body: { name: 'model', permissions: ['order:create', 'webhook:create', 'claim:read', 'claim:resolve'] },
  });
  if (created.statusCode !== 201) throw new Error(`token: ${created.statusCode} ${created.body}`);
  const token = CreateApiTokenResponse.parse(JSON.parse(created.body)).token;
  // Every event type: the test compares what arrives with the contract's mapping.
  const endpoint = await call('POST', '/api/v1/webhook-endpoints', { token, body: { url: await receiver.start() } });
  if (endpoint.statusCode !== 201) throw new Error(`endpoint: ${endpoint.statusCode} ${endpoint.body}`);
  receiver.secrets.push(CreateWebhookEndpointResponse.parse(JSON.parse(endpoint.body)).secret);
  // Through a fresh topic the projectors first take in the demo's history (and join their groups): before any story, not in its time.
  await settleAll(runtime, FIRST_SETTLE_TIMEOUT_MS);
  return {
    runtime,
    smtp,
    receiver,
    acme,
    owner,
    finance,
    token,
    call,
    async stop() {
      await runtime.stop();
      await environment.dispose();
      await receiver.stop();
      await smtp.stop();
    },
  };
}

/**
 * Reactions whose checkpoint is short of the store's head. A reaction failing a batch leaves the runtime's settle at
 * once and tries again after its pause, so a settle alone can end with a reaction behind: a CI run under load once
 * compared the store credit ledger before the credit of a decision was issued.
 */
async function reactionsBehind(db: Runtime['ctx']['database']['db']): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select name from checkpoints where name like 'reaction:%'`.execute(db);
  const behind: string[] = [];
  for (const { name } of rows) if ((await checkpointLag(db, name)).lagEvents > 0) behind.push(name);
  return behind;
}

/**
 * Until every reader has handled everything appended: the runtime's settle runs reactions, relay, followers and
 * webhook delivery; through Kafka the projectors consume on their own, so their offsets are awaited, and what
 * they write (webhook deliveries) is then sent by another settle.
 */
async function settleAll(runtime: Runtime, timeoutMs = SETTLE_TIMEOUT_MS): Promise<void> {
  const db = runtime.ctx.database.db;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const head = await storeHead(db);
    await runtime.settle();
    for (;;) {
      const behind = [...(await projectionsBehind(db, PROJECTIONS)), ...(await reactionsBehind(db))];
      if (behind.length === 0) break;
      if (Date.now() > deadline) {
        const health = await runtime.app.inject({ method: 'GET', url: '/api/health' });
        throw new Error(`readers still behind after ${timeoutMs} ms: ${behind.join(', ')}; health: ${health.body}`);
      }
      await sleep(50);
    }
    await runtime.settle();
    if ((await storeHead(db)) === head) return;
  }
}

interface FiledClaim {
  claimId: string;
  token: string;
  claimNumber: string;
  email: string;
}

/**
 * What the claim page showed right after a decision that decided the claim as a whole, which its mail must state:
 * each decided item's name and each amount the shopper gets (store credit with its bonus).
 */
interface DecisionPage {
  claimId: string;
  facts: string[];
}

/** The page's facts a decision mail states: the items decided one by one, refunds and amounts as decided, store credit with its bonus. */
function decisionFacts(page: CustomerClaimView): string[] {
  const amount = (value: number) => value.toFixed(currencyDecimals(page.currency));
  return page.resolutions.flatMap((line) => {
    const item = page.items.find((i) => i.id === line.relatedClaimItemId);
    const credit = page.storeCredits.find((c) => c.resolutionId === line.id);
    const paid = ['REFUND', 'FLAT_RATE', 'CUSTOM'].includes(line.resolutionType) ? [amount(line.paidValue)] : [];
    return [...(item ? [item.name] : []), ...(credit ? [amount(credit.total)] : paid)];
  });
}

let orderSeq = 70_000 + Math.floor(Math.random() * 10_000);

/** Puts a fresh order of several items through the public API and files a claim on every item, as the shopper. */
async function fileClaim(world: ReadersWorld, spec: ClaimSpec): Promise<FiledClaim> {
  const number = String(orderSeq++);
  const base = orderBody(number, spec.items);
  const prices = [36.88, 19.99, 7.25];
  const order = {
    ...base,
    policy: { ...base.policy, insuredAmount: 500 },
    items: base.items.map((item, i) => ({ ...item, price: prices[i]!, quantity: i === 0 ? spec.firstQuantity : 1 })),
    fulfillments: base.fulfillments.map((f) => ({
      ...f,
      items: f.items.map((item, i) => ({ ...item, quantity: i === 0 ? spec.firstQuantity : 1 })),
    })),
  };
  const put = await world.call('PUT', `/api/v1/orders/mr-${number}`, { token: world.token, body: order });
  if (put.statusCode !== 201) throw new Error(`order ${number}: ${put.statusCode} ${put.body}`);
  const body: FileClaimRequest = {
    email: base.customerEmail,
    fulfillmentIssues: [
      {
        sourceFulfillmentId: `${number}-f`,
        issues: order.items.map((item) => ({
          sourceItemId: item.sourceItemId,
          claimType: 'DAMAGED',
          quantity: item.quantity,
          details: 'Arrived broken.',
          images: [],
        })),
      },
    ],
    resolution: { desiredMethod: 'STORE_CREDIT', customerSignature: 'A Shopper', updatedShippingAddress: null },
  };
  const filed = await world.call('POST', `/api/claims/mr-${number}`, { body });
  if (filed.statusCode !== 201) throw new Error(`filing on order ${number}: ${filed.statusCode} ${filed.body}`);
  return { ...FileClaimResponse.parse(JSON.parse(filed.body)), email: base.customerEmail };
}

const fold = (events: readonly RecordedEvent[]): ClaimStateOrNone =>
  events.reduce<ClaimStateOrNone>(
    (state, recorded) => claimDecider.evolve(state, storedDomainEvent(recorded)),
    claimDecider.initialState,
  );

/** The request a resolve command makes of the claim as it stands (its items named by index). */
function resolveBody(command: Extract<StoryCommand, { kind: 'resolve' }>, claim: Claim): Record<string, unknown> {
  const reason = command.reason ? { reason: REASON } : {};
  if (command.amount !== undefined) return { resolutionType: command.type, amount: command.amount, ...reason };
  if (!command.lines) return { resolutionType: command.type, ...reason };
  return {
    resolutionType: command.type,
    ...reason,
    items: command.lines.map((line) => {
      const item = claim.items[line.item % claim.items.length]!;
      return {
        claimItemId: item.id,
        ...(line.type ? { resolutionType: line.type } : {}),
        ...(line.percentage === undefined ? {} : { percentage: line.percentage }),
        ...(line.partialQuantity && item.quantity > 1 ? { quantity: item.quantity - 1 } : {}),
      };
    }),
  };
}

/** Sends one command as its actor would; null when it names nothing that exists (a return the claim has none of). */
async function send(
  world: ReadersWorld,
  filed: FiledClaim,
  command: StoryCommand,
  claim: Claim,
  events: readonly RecordedEvent[],
): Promise<Response | null> {
  const admin = `/api/admin/claims/${filed.claimId}`;
  const owner = { cookie: world.owner };
  switch (command.kind) {
    case 'resolve':
      return command.via === 'v1'
        ? world.call('POST', `/api/v1/claims/${filed.claimId}/resolve`, {
            token: world.token,
            body: resolveBody(command, claim),
          })
        : world.call('POST', `${admin}/resolve`, { ...owner, body: resolveBody(command, claim) });
    case 'reverse':
      return world.call('POST', `${admin}/reverse-resolution`, { ...owner, body: { reason: 'Decided in error' } });
    case 'reopen':
      return world.call('POST', `${admin}/reopen`, { ...owner, body: {} });
    case 'status':
      return world.call('POST', `${admin}/status`, {
        ...owner,
        body: { status: command.to, ...(command.reason ? { reason: REASON } : {}) },
      });
    case 'message':
      return command.from === 'shopper'
        ? world.call('POST', `/api/claims/${filed.token}/messages`, { body: { messageContent: 'Any news?' } })
        : world.call('POST', `${admin}/messages`, { ...owner, body: { messageContent: 'We are on it.' } });
    case 'startReturn':
      return world.call('POST', `/api/claims/${filed.token}/returns`, {
        body: {
          items: command.items.map((i) => ({ claimItemId: claim.items[i % claim.items.length]!.id, quantity: 1 })),
          reason: 'DAMAGED',
          method: 'DROP_OFF',
        },
      });
    case 'returnStatus': {
      const returns = events.flatMap((e) =>
        e.type === 'ReturnStarted' ? [(e.data as { returnId: string }).returnId] : [],
      );
      const returnId = returns[command.returnIndex % Math.max(returns.length, 1)];
      return returnId
        ? world.call('POST', `${admin}/returns/${returnId}/status`, { ...owner, body: { to: command.to } })
        : null;
    }
    default: {
      const exhaustive: never = command;
      return exhaustive;
    }
  }
}

/** The story's rule as the store is sent it (money as decimals of its currency, US dollars for acme). */
function ruleInputOf(spec: RuleSpec): RuleInput {
  const action =
    spec.action === 'deny'
      ? { type: 'deny' as const, reason: REASON }
      : spec.action === 'approve'
        ? { type: 'approve' as const, ...(spec.resolutionType ? { resolutionType: spec.resolutionType } : {}) }
        : { type: 'hold' as const };
  return {
    name: `Model: ${spec.action} ${spec.matches} claims`,
    mode: 'live',
    conditions:
      spec.matches === 'every'
        ? [{ field: 'riskLevel', op: 'lte', value: 'high' }]
        : [{ field: 'claimValue', op: 'lte', value: 60 }],
    action,
    dailyLimit: { count: spec.dailyCount },
  };
}

interface LiveRule {
  id: string;
  input: RuleInput;
}

async function createRule(world: ReadersWorld, spec: RuleSpec): Promise<LiveRule> {
  const input = ruleInputOf(spec);
  const created = await world.call('POST', `/api/stores/${world.acme}/rules`, { cookie: world.owner, body: input });
  if (created.statusCode !== 201) throw new Error(`rule: ${created.statusCode} ${created.body}`);
  return { id: RuleCreatedResponse.parse(JSON.parse(created.body)).id, input };
}

/** Turns the story's rule off, so it decides nothing of the next story. */
async function retireRule(world: ReadersWorld, rule: LiveRule): Promise<void> {
  const off = await world.call('PUT', `/api/stores/${world.acme}/rules/${rule.id}`, {
    cookie: world.owner,
    body: { ...rule.input, mode: 'off' },
  });
  if (off.statusCode !== 200) throw new Error(`rule off: ${off.statusCode} ${off.body}`);
}

/** Plays a story and answers every disagreement between a reader and the fold, one line each (none: they all agree). */
export async function runStory(world: ReadersWorld, story: Story): Promise<string[]> {
  const rule = story.rule ? await createRule(world, story.rule) : null;
  try {
    return await playStory(world, story, rule);
  } finally {
    if (rule) await retireRule(world, rule);
  }
}

async function playStory(world: ReadersWorld, story: Story, rule: LiveRule | null): Promise<string[]> {
  const db = world.runtime.ctx.database.db;
  const violations: string[] = [];
  const periodFrom = new Date().toISOString();
  const claims: FiledClaim[] = [];
  for (const spec of story.claims) claims.push(await fileClaim(world, spec));
  const decisionPages: DecisionPage[] = [];
  if (rule) {
    // The rule decides within seconds of filing: before a person would, so the story's commands follow its decision.
    await settleAll(world.runtime);
    for (const filed of claims) {
      if (isResolvable(fold((await readStream(db, filed.claimId)).events)!)) continue;
      const page = CustomerClaimView.parse(JSON.parse((await world.call('GET', `/api/claims/${filed.token}`)).body));
      decisionPages.push({ claimId: filed.claimId, facts: decisionFacts(page) });
    }
  }
  for (const [index, command] of story.commands.entries()) {
    const filed = claims[command.claim % claims.length]!;
    const before = await readStream(db, filed.claimId);
    const response = await send(world, filed, command, fold(before.events)!, before.events);
    if (!response) continue;
    const after = await readStream(db, filed.claimId);
    const what = `command ${index} (${command.kind}) on #${filed.claimNumber} answered ${response.statusCode}`;
    if (response.statusCode >= 500 || response.statusCode < 200)
      violations.push(`refused or done, never a server error: ${what}: ${response.body}`);
    // Every actor holds what its command needs: a refusal for want of rights is the harness's fault, and would hide the command.
    else if (response.statusCode === 401 || response.statusCode === 403)
      violations.push(`the actor may do it: ${what}: ${response.body}`);
    else if (response.statusCode >= 400 && after.version !== before.version)
      violations.push(
        `a refused command changes nothing: ${what} yet the stream moved ${before.version} → ${after.version}`,
      );
    const claim = fold(after.events)!;
    if (command.kind === 'resolve' && response.statusCode < 300 && !isResolvable(claim)) {
      const page = CustomerClaimView.parse(JSON.parse((await world.call('GET', `/api/claims/${filed.token}`)).body));
      decisionPages.push({ claimId: filed.claimId, facts: decisionFacts(page) });
    }
  }
  await settleAll(world.runtime);
  const folds: Array<{ claim: Claim; events: DomainEvent[]; recorded: readonly RecordedEvent[] }> = [];
  for (const filed of claims) {
    const stream = await readStream(db, filed.claimId);
    const events = stream.events.map(storedDomainEvent);
    const claim = fold(stream.events)!;
    folds.push({ claim, events, recorded: stream.events });
    violations.push(
      ...(await checkClaim(
        world,
        filed,
        stream.version,
        claim,
        stream.events,
        decisionPages.filter((p) => p.claimId === filed.claimId),
      )),
    );
  }
  violations.push(...(await checkAnalytics(world, periodFrom, folds)));
  if (rule) violations.push(...checkRuleActed(rule, folds));
  return violations;
}

/** Who did it, as readers name a decider: a rule with the version of it that acted. */
const actorKey = (actor: { type: string; id: string; version?: number | undefined }) =>
  `${actor.type}:${actor.id}${actor.version === undefined ? '' : `@${actor.version}`}`;

/**
 * The rule acted on exactly the claims it matches as filed (their recorded risk and value), in filing order up to its
 * daily count, and on no other: each claim it acted on shows it as the actor of an event of the claim's stream.
 */
function checkRuleActed(
  rule: LiveRule,
  folds: ReadonlyArray<{ claim: Claim; events: DomainEvent[]; recorded: readonly RecordedEvent[] }>,
): string[] {
  const conditions = rule.input.conditions.map((c) =>
    c.field === 'claimValue' && typeof c.value === 'number' ? { ...c, value: toMinor(c.value, 'USD') } : c,
  );
  const matching = folds.filter(({ events }) => {
    const filed = events[0];
    return filed?.type === 'ClaimFiled' && ruleMatches({ conditions }, subjectOfFiled(filed.data));
  });
  const expected = matching.slice(0, rule.input.dailyLimit?.count ?? matching.length).map((f) => f.claim.claimNumber);
  const acted = folds
    .filter(({ recorded }) => recorded.some((e) => e.metadata.actor.type === 'rule' && e.metadata.actor.id === rule.id))
    .map((f) => f.claim.claimNumber);
  return same(acted, expected)
    ? []
    : [
        `rule "${rule.input.name}" acted on claims ${JSON.stringify(acted)}, its conditions and limit say ${JSON.stringify(expected)}`,
      ];
}

/** Compares as sorted lists, so order never matters where the reader promises none. */
const sorted = (values: readonly string[]) => [...values].sort();
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const money = (minor: number, currency: string) => toDecimal(minor, currency);

/** One ClaimResolved as the fold sees it: its lines, whether the claim stands decided as a whole after it, and its status then. */
interface Decision {
  lines: readonly ClaimResolution[];
  whole: boolean;
  statusAfter: string;
  resolved: Extract<DomainEvent, { type: 'ClaimResolved' }>['data'];
}

function decisionsOf(events: readonly DomainEvent[]): { decisions: Decision[]; reversed: Set<string> } {
  const decisions: Decision[] = [];
  const reversed = new Set<string>();
  let state: ClaimStateOrNone = claimDecider.initialState;
  for (const event of events) {
    state = claimDecider.evolve(state, event);
    if (event.type === 'ClaimResolved')
      decisions.push({
        lines: event.data.resolutions,
        whole: !isResolvable(state!),
        statusAfter: state!.status,
        resolved: event.data,
      });
    if (event.type === 'ClaimResolutionReversed') for (const line of event.data.lines) reversed.add(line.resolutionId);
  }
  return { decisions, reversed };
}

/** Contract §Webhooks: the dotted types an endpoint subscribed to everything receives for the claim's events. */
function webhookTypesOf(events: readonly DomainEvent[]): string[] {
  let state: ClaimStateOrNone = claimDecider.initialState;
  return events.flatMap((event) => {
    state = claimDecider.evolve(state, event);
    switch (event.type) {
      case 'ClaimFiled':
        return ['claim.filed'];
      case 'ClaimStatusChanged':
        return ['claim.status_changed'];
      case 'ClaimMessageSent':
        return ['claim.message_created'];
      case 'ClaimReviewed':
        return ['claim.reviewed'];
      case 'ClaimResolved':
        return [isResolvable(state!) ? 'claim.items_resolved' : 'claim.resolved'];
      // Beyond the contract's list: integrators learn that a decision's money was taken back.
      case 'ClaimResolutionReversed':
        return ['claim.resolution_reversed'];
      default:
        return [];
    }
  });
}

const DeliveredLines = z.array(z.object({ relatedClaimItemId: z.string().nullable() }));

async function checkClaim(
  world: ReadersWorld,
  filed: FiledClaim,
  version: number,
  claim: Claim,
  recorded: readonly RecordedEvent[],
  decisionPages: readonly DecisionPage[],
): Promise<string[]> {
  const events = recorded.map(storedDomainEvent);
  const violations: string[] = [];
  const expect = (invariant: string, actual: unknown, expected: unknown) => {
    if (!same(actual, expected))
      violations.push(
        `#${claim.claimNumber} ${invariant}: got ${JSON.stringify(actual)}, the fold says ${JSON.stringify(expected)}`,
      );
  };
  const { currency } = claim;
  const standing = claim.resolutions;
  const { decisions, reversed } = decisionsOf(events);
  const wholeDecisions = decisions.filter((d) => d.whole);

  // The claim list (the desk's queue).
  const page = AdminClaimPage.parse(
    JSON.parse(
      (
        await world.call('GET', `/api/admin/claims?store=${world.acme}&search=${claim.claimNumber}`, {
          cookie: world.owner,
        })
      ).body,
    ),
  );
  const row = page.data.find((r) => r.id === claim.id);
  expect(
    'claim list row',
    row && {
      status: row.status,
      resolutionType: row.resolutionType,
      resolved: row.resolvedAt !== null,
      messageCount: row.messageCount,
      version: row.version,
    },
    {
      status: claim.status,
      resolutionType: standing[0]?.resolutionType ?? null,
      resolved: standing.length > 0 && !isResolvable(claim),
      messageCount: claim.messageCount,
      version,
    },
  );

  // The timeline: one line per claim event, reversals included.
  const timeline = TimelineResponse.parse(
    JSON.parse((await world.call('GET', `/api/admin/claims/${claim.id}/timeline`, { cookie: world.owner })).body),
  );
  expect(
    'timeline lines of the claim, each with who did it (a rule with its version)',
    timeline.data.filter((l) => l.source === 'claim').map((l) => `${l.version} ${l.eventType} ${actorKey(l.actor)}`),
    recorded.map((e, i) => `${i + 1} ${e.type} ${actorKey(e.metadata.actor)}`),
  );

  // API v1: each standing resolution's decidedBy is who sent the decision that made it.
  const deciderOf = new Map(
    recorded.flatMap((e) =>
      e.type === 'ClaimResolved'
        ? (e.data as { resolutions: ClaimResolution[] }).resolutions.map((r) => [r.id, actorKey(e.metadata.actor)])
        : [],
    ),
  );
  const v1 = ApiClaim.parse(
    JSON.parse((await world.call('GET', `/api/v1/claims/${claim.id}`, { token: world.token })).body),
  );
  expect(
    'API v1 decidedBy of each standing resolution',
    v1.resolutions.map((r) => `${r.id} ${actorKey(r.decidedBy)}`),
    standing.map((r) => `${r.id} ${deciderOf.get(r.id)}`),
  );

  // The payout ledger: an entry per line that moves money, reversed when its line was.
  const entries = PayoutEntriesResponse.parse(
    JSON.parse(
      (await world.call('GET', `/api/finance/payout-entries?storeId=${world.acme}`, { cookie: world.finance })).body,
    ),
  );
  expect(
    'payout entries',
    sorted(
      entries.entries
        .filter((e) => e.claimId === claim.id)
        .map((e) => `${e.resolutionType} ${e.amount} ${e.currency} ${e.status}`),
    ),
    sorted(
      decisions.flatMap((d) =>
        payoutLinesOf(d.resolved, currency).map(
          (line) =>
            `${line.resolutionType} ${money(line.amount, line.currency)} ${line.currency} ${reversed.has(line.id) ? 'reversed' : 'pending'}`,
        ),
      ),
    ),
  );

  // Store credit: issued with its bonus per credit line, reclaimed for a reversed one; the balance is what stands.
  const credits = decisions.flatMap((d) =>
    d.lines.flatMap((line) => {
      const value = storeCreditOf(line, currency, d.resolved.valuation);
      return value ? [{ id: line.id, claim: value.claim, store: value.store }] : [];
    }),
  );
  const ledger = StoreCreditLedger.parse(
    JSON.parse(
      (
        await world.call(
          'GET',
          `/api/admin/stores/${world.acme}/store-credit/ledger?email=${encodeURIComponent(filed.email)}`,
          { cookie: world.owner },
        )
      ).body,
    ),
  );
  expect(
    'store credit ledger',
    {
      entries: sorted(ledger.entries.map((e) => `${e.kind} ${e.amount}`)),
      balance: ledger.balance,
    },
    {
      entries: sorted(
        credits.flatMap((c) => [
          `issued ${money(c.store.total, c.store.currency)}`,
          ...(reversed.has(c.id) ? [`reclaimed ${-money(c.store.total, c.store.currency)}`] : []),
        ]),
      ),
      balance: money(
        credits.filter((c) => !reversed.has(c.id)).reduce((sum, c) => sum + c.store.total, 0),
        currency,
      ),
    },
  );

  // The claim page: its status, and each credit line with its bonus, a reversed one with what was reclaimed of it.
  const view = CustomerClaimView.parse(JSON.parse((await world.call('GET', `/api/claims/${filed.token}`)).body));
  expect(
    'claim page',
    {
      status: view.status,
      credits: sorted(
        view.storeCredits.map((c) => `${c.resolutionId} ${c.total} ${c.reclaimed ? 'reclaimed' : 'standing'}`),
      ),
    },
    {
      status: claim.status,
      credits: sorted(
        credits.map(
          (c) => `${c.id} ${money(c.claim.total, c.claim.currency)} ${reversed.has(c.id) ? 'reclaimed' : 'standing'}`,
        ),
      ),
    },
  );

  // Webhooks: the contract's mapping, each webhook-id once, signed; claim.resolved with every item's outcome and the status after it.
  const delivered = world.receiver.deliveries.filter((d) => d.payload.data.claimId === claim.id);
  expect('webhook types delivered', sorted(delivered.map((d) => d.payload.type)), sorted(webhookTypesOf(events)));
  expect(
    'webhook-ids delivered more than once',
    [...new Set(delivered.map((d) => d.webhookId))].filter(
      (id) => delivered.filter((d) => d.webhookId === id).length > 1,
    ),
    [],
  );
  expect(
    'webhooks failing verification',
    delivered.filter((d) => !d.verified).map((d) => d.webhookId),
    [],
  );
  // Each decision's webhook carries its own lines (claim.resolved every standing one), each naming who decided it.
  const ResolvedByLines = z.array(
    z.object({ resolvedBy: z.object({ type: z.string(), id: z.string(), version: z.number().optional() }) }),
  );
  expect(
    'deciders named by the decision webhooks',
    sorted([
      ...new Set(
        delivered
          .filter((d) => d.payload.type === 'claim.resolved' || d.payload.type === 'claim.items_resolved')
          .flatMap((d) => {
            const lines = ResolvedByLines.safeParse(d.payload.data.resolutions);
            return lines.success ? lines.data.map((l) => actorKey(l.resolvedBy)) : ['no resolutions'];
          }),
      ),
    ]),
    sorted([...new Set(recorded.filter((e) => e.type === 'ClaimResolved').map((e) => actorKey(e.metadata.actor)))]),
  );
  const resolvedDeliveries = delivered
    .filter((d) => d.payload.type === 'claim.resolved')
    .sort((a, b) => a.payload.timestamp.localeCompare(b.payload.timestamp));
  expect(
    'claim.resolved payloads (status, items with an outcome)',
    resolvedDeliveries.map((d) => {
      const lines = DeliveredLines.safeParse(d.payload.data.resolutions);
      const covered = !lines.success
        ? 'no resolutions'
        : lines.data.some((l) => l.relatedClaimItemId === null)
          ? claim.items.length
          : new Set(lines.data.map((l) => l.relatedClaimItemId)).size;
      return { status: d.payload.data.status, items: covered };
    }),
    wholeDecisions.map((d) => ({ status: d.statusAfter, items: claim.items.length })),
  );

  // Shopper mail: one on filing, one per store message, one decision per whole decision stating the page's amounts.
  const mail = world.smtp.received.filter(
    (m) =>
      (m.to && 'text' in m.to ? m.to.text : '').includes(filed.email) &&
      (m.subject ?? '').includes(`#${claim.claimNumber}`),
  );
  const subjects = (pattern: string) => mail.filter((m) => m.subject?.includes(pattern));
  const decisionMails = subjects('has a decision');
  expect(
    'shopper mail (filed, store replies, decisions)',
    {
      filed: subjects('We received your claim').length,
      replies: subjects('wrote about your claim').length,
      decisions: decisionMails.length,
    },
    {
      filed: 1,
      replies: events.filter((e) => e.type === 'ClaimMessageSent' && e.data.senderType !== 'customer').length,
      decisions: wholeDecisions.length,
    },
  );
  for (const [i, decided] of decisionPages.entries()) {
    const text = decisionMails[i]?.text ?? '';
    expect(
      `decision mail ${i + 1} states each item and the page's amounts (store credit with its bonus)`,
      decided.facts.filter((fact) => !text.includes(fact)),
      [],
    );
  }
  return violations;
}

/** Analytics of the store for the story's claims (filed in the story's period) against the folds' standing lines. */
async function checkAnalytics(
  world: ReadersWorld,
  from: string,
  folds: ReadonlyArray<{ claim: Claim; events: DomainEvent[] }>,
): Promise<string[]> {
  const to = new Date(Date.now() + 60_000).toISOString();
  const response = await world.call(
    'GET',
    `/api/admin/analytics?store=${world.acme}&from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`,
    { cookie: world.owner },
  );
  const { figures } = AnalyticsResponse.parse(JSON.parse(response.body));
  const reimbursed = new Map<string, { amount: number; lines: number; currency: string; type: string }>();
  let credit = 0;
  let currency = 'USD';
  for (const { claim, events } of folds) {
    const standing = new Set(claim.resolutions.map((r) => r.id));
    for (const decision of decisionsOf(events).decisions) {
      const owed = new Map(payoutLinesOf(decision.resolved, claim.currency).map((line) => [line.id, line]));
      for (const line of decision.lines.filter((l) => standing.has(l.id) && l.resolutionType !== 'DENY')) {
        const payout = owed.get(line.id);
        currency = payout?.currency ?? decision.resolved.valuation?.storeCurrency ?? claim.currency;
        const key = `${line.resolutionType} ${currency}`;
        const total = reimbursed.get(key) ?? { amount: 0, lines: 0, currency, type: line.resolutionType };
        reimbursed.set(key, { ...total, amount: total.amount + (payout?.amount ?? 0), lines: total.lines + 1 });
        credit += storeCreditOf(line, claim.currency, decision.resolved.valuation)?.store.total ?? 0;
      }
    }
  }
  const actual = {
    claimsFiled: figures.claimsFiled,
    reimbursed: sorted(figures.reimbursed.map((r) => `${r.resolutionType} ${r.currency} ${r.amount} ${r.lines}`)),
    storeCredit: figures.storeCreditIssued.filter((c) => c.amount !== 0).map((c) => `${c.currency} ${c.amount}`),
  };
  const expected = {
    claimsFiled: folds.length,
    reimbursed: sorted(
      [...reimbursed.values()].map((r) => `${r.type} ${r.currency} ${money(r.amount, r.currency)} ${r.lines}`),
    ),
    storeCredit: credit === 0 ? [] : [`${currency} ${money(credit, currency)}`],
  };
  return same(actual, expected)
    ? []
    : [`analytics of the story's claims: got ${JSON.stringify(actual)}, the folds say ${JSON.stringify(expected)}`];
}

/**
 * The model-based property, in the calling suite, on a world of `mode`: after any story, every reader agrees with the
 * fold of each claim's stream.
 */
export function readersAgreeWithTheFold(mode: Mode, runs: { numRuns: number; interruptAfterTimeLimit: number }): void {
  let world: ReadersWorld;
  beforeAll(async () => {
    world = await startReadersWorld(mode);
  });
  afterAll(async () => {
    await world?.stop();
  });

  it('agrees with the fold after any sequence of filings, decisions, reversals, reopenings, messages, status changes and returns', async () => {
    await fc.assert(
      fc.asyncProperty(story, async (s) => {
        expect(await runStory(world, s)).toEqual([]);
      }),
      runs,
    );
  });
}
