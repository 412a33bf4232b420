import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiClaim,
  BacktestView,
  CreateApiTokenResponse,
  CustomerClaimView,
  RuleActivityList,
  RuleVersionList,
  type DomainEvent,
  type RuleInput,
} from '@claims/contracts';
import { appendToStreams, readStream, type NewEvent } from '@claims/event-store';
import { groupByStream } from '../src/eventsourcing/newEvents.js';
import { orderBody } from '../../../test/support/orderBody.js';
import { startReadersWorld, type ReadersWorld } from './support/claimReaders.js';

const json = <T>(response: { body: string }): T => JSON.parse(response.body) as T;

/** Contract §Automation end to end on PostgreSQL and Kafka: rules decide like an agent, shadow rules only record. */
describe('rules decide claims like an agent (PostgreSQL and Kafka)', () => {
  let world: ReadersWorld;
  let token: string;
  let agent: string;
  let orderSeq = 90_000 + Math.floor(Math.random() * 9_000);

  const login = async (email: string) => {
    const response = await world.runtime.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password: 'demo-pass-1234' },
    });
    return String(response.headers['set-cookie']).split(';')[0]!;
  };

  /** A fresh one-item order of `price` through API v1, and a DAMAGED claim on it filed by its shopper. */
  async function file(
    price: number,
    customerEmail?: string,
  ): Promise<{ claimId: string; email: string; token: string }> {
    const number = String(orderSeq++);
    const body = orderBody(number);
    const order = {
      ...body,
      customerEmail: customerEmail ?? body.customerEmail,
      items: body.items.map((item) => ({ ...item, price })),
    };
    const put = await world.call('PUT', `/api/v1/orders/rule-${number}`, { token: world.token, body: order });
    expect(put.statusCode).toBe(201);
    const filed = await world.call('POST', `/api/claims/rule-${number}`, {
      body: {
        email: order.customerEmail,
        fulfillmentIssues: [
          {
            sourceFulfillmentId: `${number}-f`,
            issues: [
              { sourceItemId: `${number}-li-0`, claimType: 'DAMAGED', quantity: 1, details: 'Broken.', images: [] },
            ],
          },
        ],
        resolution: { desiredMethod: 'STORE_CREDIT', customerSignature: 'A Shopper', updatedShippingAddress: null },
      },
    });
    expect(filed.statusCode).toBe(201);
    const { claimId, token } = json<{ claimId: string; token: string }>(filed);
    return { claimId, email: order.customerEmail, token };
  }

  const claimOf = async (claimId: string) =>
    ApiClaim.parse(json(await world.call('GET', `/api/v1/claims/${claimId}`, { token })));

  const approveSmallDamage: RuleInput = {
    name: 'Approve damaged claims up to $100',
    mode: 'live',
    conditions: [
      { field: 'claimType', op: 'eq', value: 'DAMAGED' },
      { field: 'claimValue', op: 'lte', value: 100 },
    ],
    action: { type: 'approve' },
  };
  const shadowDeny: RuleInput = {
    name: 'Would deny every damaged claim',
    mode: 'shadow',
    conditions: [{ field: 'claimType', op: 'in', value: ['DAMAGED', 'DEFECTIVE_ITEM'] }],
    action: { type: 'deny', reason: 'OTHER' },
  };
  let liveRuleId: string;
  let shadowRuleId: string;
  let periodStart: string;
  let approved: { claimId: string; email: string; token: string };
  let untouched: { claimId: string; email: string; token: string };

  beforeAll(async () => {
    world = await startReadersWorld('postgres+kafka');
    const created = await world.call('POST', `/api/stores/${world.acme}/api-tokens`, {
      cookie: world.owner,
      body: { name: 'automation', permissions: ['automation:read', 'automation:update', 'claim:read'] },
    });
    token = CreateApiTokenResponse.parse(json(created)).token;
    agent = await login('agent@acme.test');
  });
  afterAll(async () => {
    await world?.stop();
  });

  it('lets support read the rules but not change them; owners change them, by session or API token', async () => {
    const none = await world.call('GET', `/api/stores/${world.acme}/rules`, { cookie: agent });
    expect(none.statusCode).toBe(200);
    // A store without rules still says its currency, what a new rule's money is in.
    expect(json(none)).toEqual({ rules: [], paused: false, currency: 'USD', version: 0 });
    const refused = await world.call('POST', `/api/stores/${world.acme}/rules`, { cookie: agent, body: shadowDeny });
    expect(refused.statusCode).toBe(403);
    const shadow = await world.call('POST', `/api/stores/${world.acme}/rules`, {
      cookie: world.owner,
      body: shadowDeny,
    });
    expect(shadow.statusCode).toBe(201);
    shadowRuleId = json<{ id: string }>(shadow).id;
    const live = await world.call('POST', `/api/stores/${world.acme}/rules`, { token, body: approveSmallDamage });
    expect(live.statusCode).toBe(201);
    expect(json<{ version: number }>(live).version).toBe(1);
    liveRuleId = json<{ id: string }>(live).id;
    const list = json<{ rules: Array<{ id: string; conditions: Array<{ value: unknown }> }> }>(
      await world.call('GET', `/api/stores/${world.acme}/rules`, { token }),
    );
    expect(list.rules.map((r) => r.id)).toEqual([shadowRuleId, liveRuleId]);
    // Money at the edge is a decimal of the store's currency, as sent.
    expect(list.rules[1]!.conditions[1]!.value).toBe(100);
  });

  it('decides a matching claim within seconds as the rule, with mail and webhooks as for an agent; leaves another alone; a shadow rule only records', async () => {
    periodStart = new Date(Date.now() - 1_000).toISOString();
    const started = Date.now();
    approved = await file(24.5);
    let claim = await claimOf(approved.claimId);
    while (claim.status === 'NEW' && Date.now() - started < 10_000) {
      await sleep(50);
      claim = await claimOf(approved.claimId);
    }
    const decidedInMs = Date.now() - started;
    expect(claim.status).toBe('RESOLVED');
    expect(decidedInMs).toBeLessThan(5_000);
    expect(claim.resolutions.map((r) => r.decidedBy)).toEqual([
      { type: 'rule', id: liveRuleId, version: 1, name: approveSmallDamage.name },
    ]);
    expect(claim.resolutions[0]!.resolutionType).toBe('STORE_CREDIT');
    expect(claim.risk.level).toBe('low');

    untouched = await file(500);
    await world.runtime.settle();
    await sleep(500);
    await world.runtime.settle();
    const other = await claimOf(untouched.claimId);
    expect(other.status).toBe('NEW');
    expect(other.resolutions).toEqual([]);

    // Webhooks and mail as for an agent's decision, once the readers caught up.
    const deadline = Date.now() + 30_000;
    const webhooksOf = (claimId: string) =>
      world.receiver.deliveries.filter((d) => (d.payload.data as { claimId?: string }).claimId === claimId);
    while (
      (!webhooksOf(approved.claimId).some((d) => d.payload.type === 'claim.resolved') ||
        !world.smtp.received.some(
          (m) =>
            (m.to && 'text' in m.to ? m.to.text : '').includes(approved.email) &&
            /has a decision/.test(m.subject ?? ''),
        )) &&
      Date.now() < deadline
    ) {
      await world.runtime.settle();
      await sleep(100);
    }
    const resolvedHook = webhooksOf(approved.claimId).find((d) => d.payload.type === 'claim.resolved');
    expect(resolvedHook?.verified).toBe(true);
    const filedHook = webhooksOf(approved.claimId).find((d) => d.payload.type === 'claim.filed');
    expect((filedHook?.payload.data as { risk?: { level: string } }).risk?.level).toBe('low');
    expect(JSON.stringify(filedHook?.payload.data)).not.toMatch(/shopperKey|riskFacts/);
    expect(
      world.smtp.received.some(
        (m) =>
          (m.to && 'text' in m.to ? m.to.text : '').includes(approved.email) && /has a decision/.test(m.subject ?? ''),
      ),
    ).toBe(true);
    expect(webhooksOf(untouched.claimId).map((d) => d.payload.type)).toEqual(['claim.filed']);
    // The shopper's mail says "approved", the claim page too; the other claim has no outcome yet.
    expect(
      world.smtp.received
        .filter(
          (m) => (m.to && 'text' in m.to ? m.to.text : '').includes(approved.email) && /decision/.test(m.subject ?? ''),
        )
        .map((m) => m.subject?.replace(/#\d+/, '#N')),
    ).toEqual(['Your claim #N has a decision: approved']);
    const shopperView = async (filed: { token: string }) =>
      CustomerClaimView.parse(json(await world.call('GET', `/api/claims/${filed.token}`))).outcome;
    expect(await shopperView(approved)).toBe('APPROVED');
    expect(await shopperView(untouched)).toBeNull();

    const activity = async (ruleId: string) =>
      RuleActivityList.parse(
        json(await world.call('GET', `/api/stores/${world.acme}/rules/${ruleId}/activity`, { token })),
      ).entries;
    expect((await activity(liveRuleId)).map((e) => [e.claimId, e.mode, e.action, e.amount])).toEqual([
      [approved.claimId, 'live', 'approve', 24.5],
    ]);
    expect(new Set((await activity(shadowRuleId)).map((e) => `${e.claimId} ${e.mode} ${e.action}`))).toEqual(
      new Set([`${approved.claimId} shadow deny`, `${untouched.claimId} shadow deny`]),
    );
    // The claim page's view of the same: what every rule did or would have done to that claim, for its agents.
    const onClaim = async (claimId: string) => {
      const response = await world.call('GET', `/api/admin/claims/${claimId}/rule-activity`, { cookie: agent });
      expect(response.statusCode, response.body).toBe(200);
      return RuleActivityList.parse(json(response)).entries.map(
        (e) => `${e.ruleName} v${e.ruleVersion} ${e.mode} ${e.action}`,
      );
    };
    expect(new Set(await onClaim(approved.claimId))).toEqual(
      new Set([`${approveSmallDamage.name} v1 live approve`, `${shadowDeny.name} v1 shadow deny`]),
    );
    expect(await onClaim(untouched.claimId)).toEqual([`${shadowDeny.name} v1 shadow deny`]);
    const kumoOwner = await login('owner@kumo.test');
    expect(
      (await world.call('GET', `/api/admin/claims/${approved.claimId}/rule-activity`, { cookie: kumoOwner }))
        .statusCode,
    ).toBe(404);
  });

  it('backtests a rule over the same claims to what it did live, changing nothing', async () => {
    const backtest = async (rule: RuleInput) => {
      const started = await world.call('POST', `/api/stores/${world.acme}/rules/backtests`, {
        token,
        body: { rule, from: periodStart, to: new Date().toISOString() },
      });
      expect(started.statusCode).toBe(202);
      const { id } = json<{ id: string }>(started);
      for (;;) {
        const view = BacktestView.parse(
          json(await world.call('GET', `/api/stores/${world.acme}/rules/backtests/${id}`, { token })),
        );
        if (view.status !== 'running') return view;
        await sleep(50);
      }
    };
    const live = await backtest(approveSmallDamage);
    expect(live).toMatchObject({
      status: 'done',
      progress: 1,
      matched: 1,
      decided: { count: 1, amount: 24.5, currency: 'USD' },
      disagreements: [],
    });
    const shadow = await backtest({ ...shadowDeny, mode: 'live' });
    expect(shadow).toMatchObject({ status: 'done', matched: 2, decided: { count: 2, amount: 0, currency: 'USD' } });
    // The rule approved the first claim; the draft would have denied it: that is the disagreement to look at.
    expect(shadow.disagreements).toEqual([
      expect.objectContaining({ claimId: approved.claimId, agent: 'APPROVED', rule: 'DENIED' }),
    ]);
    expect((await claimOf(untouched.claimId)).status).toBe('NEW');
  });

  it('keeps a daily limit when another process decided for the rule meanwhile', async () => {
    const limited = await world.call('POST', `/api/stores/${world.acme}/rules`, {
      token,
      body: {
        name: 'Approve two mid-size damages a day',
        mode: 'live',
        conditions: [
          { field: 'claimType', op: 'eq', value: 'DAMAGED' },
          { field: 'claimValue', op: 'gte', value: 200 },
          { field: 'claimValue', op: 'lte', value: 300 },
        ],
        action: { type: 'approve' },
        dailyLimit: { count: 2 },
      } satisfies RuleInput,
    });
    const ruleId = json<{ id: string }>(limited).id;
    const decided = async (claimId: string) => {
      await world.runtime.settle();
      await sleep(300);
      await world.runtime.settle();
      return (await claimOf(claimId)).status;
    };
    const first = await file(250);
    expect(await decided(first.claimId)).toBe('RESOLVED');
    // Another process's decision for the same rule and day: this process's view of the day is now one behind.
    const appliedAt = new Date().toISOString();
    const day = appliedAt.slice(0, 10);
    const elsewhere = randomUUID();
    const elsewhereEvent: DomainEvent = {
      type: 'RuleApplied',
      data: {
        storeId: world.acme,
        ruleId,
        ruleVersion: 1,
        ruleName: 'Approve two mid-size damages a day',
        mode: 'live',
        day,
        claimId: elsewhere,
        claimNumber: 'elsewhere',
        action: 'approve',
        amount: 25_000,
        currency: 'USD',
        appliedAt,
      },
    };
    const [[streamId, group]] = [
      ...groupByStream([elsewhereEvent], {
        actor: { type: 'system', id: 'other-process' },
        correlationId: elsewhere,
        causationId: elsewhere,
      }),
    ] as [[string, { streamType: string; events: NewEvent[] }]];
    const read = await readStream(world.runtime.ctx.database.db, streamId);
    const [appended] = await appendToStreams(world.runtime.ctx.database.db, [
      {
        streamId,
        streamType: group.streamType,
        storeId: world.acme,
        expectedVersion: read.version,
        events: group.events,
      },
    ]);
    expect(appended?.ok).toBe(true);
    const past = await file(260);
    expect(await decided(past.claimId)).toBe('NEW');
    const entries = RuleActivityList.parse(
      json(await world.call('GET', `/api/stores/${world.acme}/rules/${ruleId}/activity`, { token })),
    ).entries;
    expect(entries.map((e) => e.claimId).sort()).toEqual([first.claimId, elsewhere].sort());
  });

  it('the kill switch stops every rule of the store', async () => {
    const paused = await world.call('PUT', `/api/stores/${world.acme}/rules/switch`, {
      token,
      body: { paused: true },
    });
    expect(json<{ paused: boolean }>(paused).paused).toBe(true);
    const held = await file(10);
    await world.runtime.settle();
    await sleep(500);
    await world.runtime.settle();
    expect((await claimOf(held.claimId)).status).toBe('NEW');
  });

  it('keeps every version of a rule, newest first, with who saved it; support reads them', async () => {
    const revised = await world.call('PUT', `/api/stores/${world.acme}/rules/${liveRuleId}`, {
      cookie: world.owner,
      body: { ...approveSmallDamage, mode: 'shadow', dailyLimit: { count: 5, amount: 250.5 } },
    });
    expect(json<{ version: number }>(revised).version).toBe(2);
    const read = await world.call('GET', `/api/stores/${world.acme}/rules/${liveRuleId}/versions`, { cookie: agent });
    expect(read.statusCode).toBe(200);
    const { versions } = RuleVersionList.parse(json(read));
    expect(versions.map((v) => [v.version, v.rule.mode, v.rule.dailyLimit])).toEqual([
      [2, 'shadow', { count: 5, amount: 250.5 }],
      [1, 'live', { count: null, amount: null }],
    ]);
    expect(versions[0]!.actor).toMatchObject({ type: 'user', name: 'Alex Owner' });
    expect(versions[1]!.rule.conditions).toEqual(approveSmallDamage.conditions);
    expect(Date.parse(versions[0]!.at)).toBeGreaterThanOrEqual(Date.parse(versions[1]!.at));
    const unknown = await world.call('GET', `/api/stores/${world.acme}/rules/${crypto.randomUUID()}/versions`, {
      cookie: agent,
    });
    expect(unknown.statusCode).toBe(404);
  });

  it("counts a shopper's claim of a moment ago in the next one's risk, at the store and at another", async () => {
    const email = `burst-${orderSeq}@example.com`;
    const first = await file(30, email);
    // At once, with no wait for the projectors: the history is read from the event store.
    const second = await file(30, email);
    const kumo = json<{ storeId: string }>(await world.call('GET', '/api/whitelabel/settings?store=kumo')).storeId;
    const kumoToken = CreateApiTokenResponse.parse(
      json(
        await world.call('POST', `/api/stores/${kumo}/api-tokens`, {
          cookie: await login('owner@kumo.test'),
          body: { name: 'burst', permissions: ['order:create', 'claim:read'] },
        }),
      ),
    ).token;
    const number = String(orderSeq++);
    const body = orderBody(number);
    const yen = {
      ...body,
      customerEmail: email,
      currency: 'JPY',
      shippingCost: 500,
      tax: 300,
      policy: { insuredAmount: 10_000, premiumPaid: 200, premiumCurrency: 'JPY' },
      items: body.items.map((item) => ({ ...item, price: 3_000 })),
    };
    expect(
      (await world.call('PUT', `/api/v1/orders/burst-${number}`, { token: kumoToken, body: yen })).statusCode,
    ).toBe(201);
    const elsewhere = await world.call('POST', `/api/claims/burst-${number}`, {
      body: {
        email,
        fulfillmentIssues: [
          {
            sourceFulfillmentId: `${number}-f`,
            issues: [
              { sourceItemId: `${number}-li-0`, claimType: 'DAMAGED', quantity: 1, details: 'Broken.', images: [] },
            ],
          },
        ],
        resolution: { desiredMethod: 'STORE_CREDIT', customerSignature: 'A Shopper', updatedShippingAddress: null },
      },
    });
    expect(elsewhere.statusCode, elsewhere.body).toBe(201);
    const codes = (claim: ApiClaim) => claim.risk.reasons.map((r) => r.code);
    expect(codes(await claimOf(first.claimId))).not.toContain('earlier_claims_here');
    expect((await claimOf(second.claimId)).risk.reasons).toContainEqual({
      code: 'earlier_claims_here',
      text: 'The shopper filed 1 other claim at this store in the last 90 days.',
    });
    const atKumo = ApiClaim.parse(
      json(
        await world.call('GET', `/api/v1/claims/${json<{ claimId: string }>(elsewhere).claimId}`, {
          token: kumoToken,
        }),
      ),
    );
    expect(codes(atKumo)).toContain('claims_at_other_stores');
    expect(atKumo.risk.reasons.find((r) => r.code === 'claims_at_other_stores')?.text).toBe(
      'The shopper filed 2 claims at other stores in the last 90 days.',
    );
  });
});
