import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import {
  AdminClaimDetail,
  BulkStatusResponse,
  ClaimNoteList,
  MacroList,
  RenderedMacro,
  SopList,
  TeamMemberList,
  TimelineResponse,
  type OrderInput,
  type Permission,
  type RoleName,
} from '@claims/contracts';
import { readStream } from '@claims/event-store';
import { upsertOrder } from '../src/catalog/orderRepository.js';
import { runSlaSweep } from '../src/sla/slaScheduler.js';
import {
  DEMO_STORES,
  DEMO_USER_NAMES,
  demoUserHolds,
  statusByTable,
  type DemoStore,
  json,
  oneItemClaim,
  startHarness,
  type DemoUser,
  type Harness,
} from './support/backofficeHarness.js';
import { testOrder } from './support/testOrders.js';
import { mailedInvitationToken } from './support/invitations.js';

const DAY = 86_400_000;
let orderCount = 0;
function freshOrder(currency: 'USD' | 'JPY'): { number: string; input: OrderInput } {
  const number = `DESK-${++orderCount}`;
  return { number, input: testOrder(number, { currency }) };
}

describe('the agent desk: notes, labels, metadata, macros, SOPs, team, bulk status, SLA timers, claim as of a version', () => {
  let h: Harness;
  const cookies = new Map<DemoUser, string>();
  const storeIds = new Map<DemoStore, string>();
  /** Per `${user}@${slug}`: what each user's walk acts on, so one user's changes never meet another's. */
  const claims = new Map<string, { claimId: string; token: string }>();
  const seeded = new Map<
    string,
    { sop: string; sopToDelete: string; macroToDelete: string; changeRole: string; remove: string; owner: string }
  >();
  const storeMacro = new Map<DemoStore, string>();
  let globalMacro = '';

  const call = (user: DemoUser, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown) =>
    h.call({ method, url, cookie: cookies.get(user), body });
  const ok = async <T = unknown>(
    user: DemoUser,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    body?: unknown,
  ): Promise<T> => {
    const response = await call(user, method, url, body);
    if (response.statusCode >= 300)
      throw new Error(`${method} ${url} as ${user}: ${response.statusCode} ${response.body}`);
    return (response.body ? json<T>(response) : undefined) as T;
  };
  async function fileOn(slug: DemoStore): Promise<{ claimId: string; token: string }> {
    const { number, input } = freshOrder(slug === 'kumo' ? 'JPY' : 'USD');
    await upsertOrder(h.runtime.ctx.database.db, storeIds.get(slug)!, `src-${number}`, input);
    return h.fileClaim(`src-${number}`, oneItemClaim(input.customerEmail, `${number}-f`, `${number}-li`));
  }
  const invite = async (slug: DemoStore, email: string, role: RoleName = 'store_user') =>
    await ok<{ member: { userId: string } }>('admin', 'POST', `/api/admin/stores/${storeIds.get(slug)}/team-members`, {
      email,
      name: 'Tess Member',
      role,
    });

  beforeAll(async () => {
    h = await startHarness();
    for (const user of DEMO_USER_NAMES) cookies.set(user, await h.login(user));
    for (const slug of DEMO_STORES) storeIds.set(slug, await h.storeId(slug));
    for (const slug of DEMO_STORES) {
      const store = storeIds.get(slug)!;
      storeMacro.set(
        slug,
        (
          await ok<{ id: string }>('admin', 'POST', `/api/admin/stores/${store}/macros`, {
            name: 'Apology',
            kind: 'reply',
            body: 'Hi {{customer.firstName}}, about claim #{{claim.number}} — {{store.name}}',
          })
        ).id,
      );
      for (const user of DEMO_USER_NAMES) {
        const key = `${user}@${slug}`;
        const filed = await fileOn(slug);
        claims.set(key, filed);
        await ok('admin', 'PUT', `/api/admin/claims/${filed.claimId}/metadata/seeded`, { value: 'v0' });
        const tag = `${user.toLowerCase()}-${slug}`;
        seeded.set(key, {
          sop: (
            await ok<{ id: string }>('admin', 'POST', `/api/admin/stores/${store}/sops`, {
              title: `SOP ${tag}`,
              body: 'Steps',
            })
          ).id,
          sopToDelete: (
            await ok<{ id: string }>('admin', 'POST', `/api/admin/stores/${store}/sops`, {
              title: `Old ${tag}`,
              body: '',
            })
          ).id,
          macroToDelete: (
            await ok<{ id: string }>('admin', 'POST', `/api/admin/stores/${store}/macros`, {
              name: `Old ${tag}`,
              kind: 'reply',
              body: 'x',
            })
          ).id,
          changeRole: (await invite(slug, `role-${tag}@example.com`)).member.userId,
          remove: (await invite(slug, `gone-${tag}@example.com`)).member.userId,
          owner: (await invite(slug, `owner-${tag}@example.com`)).member.userId,
        });
      }
    }
    globalMacro = (
      await ok<{ id: string }>('admin', 'POST', '/api/admin/global-macros', {
        name: 'Refund',
        kind: 'resolution',
        body: 'We refunded claim #{{claim.number}}.',
        resolution: { resolutionType: 'REFUND', description: 'Refund for {{customer.name}}' },
      })
    ).id;
    await h.runtime.settle();
  }, 240_000);
  afterAll(() => h.stop());

  const cases = DEMO_USER_NAMES.flatMap((user) => DEMO_STORES.map((store) => [user, store] as const));

  it.each(cases)('%s on %s answers every new endpoint as the table says', async (user, store) => {
    const key = `${user}@${store}`;
    const { claimId } = claims.get(key)!;
    const s = seeded.get(key)!;
    const storeId = storeIds.get(store)!;
    const team = `/api/admin/stores/${storeId}/team-members`;
    const walk: Array<{
      name: string;
      needs: Permission | Permission[];
      ok: number;
      run: () => ReturnType<Harness['call']>;
    }> = [
      {
        name: 'add note',
        needs: 'claim-note:create',
        ok: 201,
        run: () => call(user, 'POST', `/api/admin/claims/${claimId}/notes`, { body: `Note by ${user}` }),
      },
      {
        name: 'list notes',
        needs: 'claim-note:read',
        ok: 200,
        run: () => call(user, 'GET', `/api/admin/claims/${claimId}/notes`),
      },
      {
        name: 'add label',
        needs: 'label:add',
        ok: 200,
        run: () => call(user, 'POST', `/api/admin/claims/${claimId}/labels`, { label: 'walk' }),
      },
      {
        name: 'remove label',
        needs: 'label:remove',
        ok: 200,
        run: () => call(user, 'DELETE', `/api/admin/claims/${claimId}/labels/walk`),
      },
      {
        name: 'create metadata',
        needs: 'metadata:create',
        ok: 200,
        run: () => call(user, 'PUT', `/api/admin/claims/${claimId}/metadata/new-key`, { value: user }),
      },
      {
        name: 'update metadata',
        needs: 'metadata:update',
        ok: 200,
        run: () => call(user, 'PUT', `/api/admin/claims/${claimId}/metadata/seeded`, { value: user }),
      },
      {
        name: 'claim as of v1',
        needs: 'claim:read',
        ok: 200,
        run: () => call(user, 'GET', `/api/admin/claims/${claimId}?asOf=1`),
      },
      {
        name: 'list macros',
        needs: 'macro:read',
        ok: 200,
        run: () => call(user, 'GET', `/api/admin/stores/${storeId}/macros`),
      },
      {
        name: 'create macro',
        needs: 'macro:create',
        ok: 201,
        run: () =>
          call(user, 'POST', `/api/admin/stores/${storeId}/macros`, {
            name: `By ${user}`,
            kind: 'reply',
            body: 'Hello {{customer.name}}',
          }),
      },
      {
        name: 'update macro',
        needs: 'macro:update',
        ok: 200,
        run: () =>
          call(user, 'PUT', `/api/admin/stores/${storeId}/macros/${storeMacro.get(store)}`, {
            name: 'Apology',
            kind: 'reply',
            body: `Hi {{customer.firstName}} (${user})`,
          }),
      },
      {
        name: 'delete macro',
        needs: 'macro:delete',
        ok: 204,
        run: () => call(user, 'DELETE', `/api/admin/stores/${storeId}/macros/${s.macroToDelete}`),
      },
      {
        name: 'render store macro',
        needs: ['claim:read', 'macro:read'],
        ok: 200,
        run: () => call(user, 'POST', `/api/admin/claims/${claimId}/macros/${storeMacro.get(store)}/render`),
      },
      {
        name: 'render global macro',
        needs: ['claim:read', 'global-macro:read'],
        ok: 200,
        run: () => call(user, 'POST', `/api/admin/claims/${claimId}/macros/${globalMacro}/render`),
      },
      {
        name: 'list sops',
        needs: 'sop:read',
        ok: 200,
        run: () => call(user, 'GET', `/api/admin/stores/${storeId}/sops`),
      },
      {
        name: 'create sop',
        needs: 'sop:create',
        ok: 201,
        run: () => call(user, 'POST', `/api/admin/stores/${storeId}/sops`, { title: `By ${user}`, body: 'Steps' }),
      },
      {
        name: 'update sop',
        needs: 'sop:update',
        ok: 200,
        run: () =>
          call(user, 'PUT', `/api/admin/stores/${storeId}/sops/${s.sop}`, { title: 'Rewritten', body: 'New steps' }),
      },
      {
        name: 'publish sop',
        needs: 'sop:set-state',
        ok: 200,
        run: () => call(user, 'POST', `/api/admin/stores/${storeId}/sops/${s.sop}/state`, { state: 'active' }),
      },
      {
        name: 'delete sop',
        needs: 'sop:delete',
        ok: 204,
        run: () => call(user, 'DELETE', `/api/admin/stores/${storeId}/sops/${s.sopToDelete}`),
      },
      { name: 'list team', needs: 'team-member:read', ok: 200, run: () => call(user, 'GET', team) },
      {
        name: 'invite',
        needs: 'team-member:invite',
        ok: 201,
        run: () =>
          call(user, 'POST', team, {
            email: `new-${user.toLowerCase()}-${store}@example.com`,
            name: 'New One',
            role: 'store_user',
          }),
      },
      {
        name: 'change role',
        needs: 'team-member:change-role',
        ok: 200,
        run: () => call(user, 'POST', `${team}/${s.changeRole}/role`, { role: 'store_support' }),
      },
      {
        name: 'grant ownership',
        needs: 'team-member:grant-ownership',
        ok: 200,
        run: () => call(user, 'POST', `${team}/${s.owner}/ownership`, { level: 'store' }),
      },
      {
        name: 'remove member',
        needs: 'team-member:remove',
        ok: 204,
        run: () => call(user, 'DELETE', `${team}/${s.remove}`),
      },
    ];
    const answers: Record<string, number> = {};
    const wanted: Record<string, number> = {};
    for (const step of walk) {
      const response = await step.run();
      answers[step.name] = response.statusCode;
      wanted[step.name] = statusByTable(user, step.needs, store, step.ok);
      if (response.statusCode === 404)
        expect(json<{ error: string }>(response).error, step.name).toMatch(/^(not_found|claim_not_found)$/);
      if (response.statusCode === 403) expect(json(response), step.name).toMatchObject({ error: 'forbidden' });
    }
    expect(answers).toEqual(wanted);

    // What was refused left no trace; what was allowed is in the claim.
    const after = AdminClaimDetail.parse(json(await call('admin', 'GET', `/api/admin/claims/${claimId}`)));
    expect(after.noteCount).toBe(wanted['add note'] === 201 ? 1 : 0);
    expect(after.labels).toEqual(wanted['add label'] === 200 && wanted['remove label'] !== 200 ? ['walk'] : []);
    expect(after.metadata['new-key']).toBe(wanted['create metadata'] === 200 ? user : undefined);
    expect(after.metadata.seeded).toBe(wanted['update metadata'] === 200 ? user : 'v0');
    const members = TeamMemberList.parse(json(await call('admin', 'GET', team))).data;
    const roleOf = (userId: string) => members.find((m) => m.userId === userId)?.grants.map((g) => g.role);
    expect(roleOf(s.changeRole)).toEqual([wanted['change role'] === 200 ? 'store_support' : 'store_user']);
    expect(roleOf(s.owner)).toEqual([wanted['grant ownership'] === 200 ? 'store_owner' : 'store_user']);
    expect(roleOf(s.remove)).toEqual(wanted['remove member'] === 204 ? undefined : ['store_user']);
  });

  it('answers the global macros to Order Protection roles only', async () => {
    for (const user of DEMO_USER_NAMES) {
      const list = await call(user, 'GET', '/api/admin/global-macros');
      expect(list.statusCode, user).toBe(demoUserHolds(user, 'global-macro:read') ? 200 : 403);
      const created = await call(user, 'POST', '/api/admin/global-macros', {
        name: `G ${user}`,
        kind: 'reply',
        body: 'Hi',
      });
      expect(created.statusCode, user).toBe(demoUserHolds(user, 'global-macro:create') ? 201 : 403);
    }
    const data = MacroList.parse(json(await call('admin', 'GET', '/api/admin/global-macros'))).data;
    expect(data.every((m) => m.scope === 'global' && m.storeId === null)).toBe(true);
    // A global macro is not a store's: the store path does not find it.
    expect(
      (
        await call('admin', 'PUT', `/api/admin/stores/${storeIds.get('acme')}/macros/${globalMacro}`, {
          name: 'x',
          kind: 'reply',
          body: 'x',
        })
      ).statusCode,
    ).toBe(404);
    // Another store's macro is as missing as an unknown one, and unknown placeholders are refused.
    expect(
      (await call('kumoOwner', 'DELETE', `/api/admin/stores/${storeIds.get('kumo')}/macros/${storeMacro.get('acme')}`))
        .statusCode,
    ).toBe(404);
    const bad = await call('admin', 'POST', `/api/admin/stores/${storeIds.get('acme')}/macros`, {
      name: 'x',
      kind: 'reply',
      body: 'Hi {{customer.password}}',
    });
    expect(bad.statusCode).toBe(400);
    expect(json<{ message: string }>(bad).message).toContain('customer.password');
    expect(
      (await call('admin', 'GET', '/api/admin/stores/00000000-0000-4000-8000-000000000000/macros')).statusCode,
    ).toBe(404);
  });

  it("renders a macro for a claim, and a resolution macro's preset too", async () => {
    const { claimId } = claims.get('admin@acme')!;
    const reply = RenderedMacro.parse(
      json(await call('acmeOwner', 'POST', `/api/admin/claims/${claimId}/macros/${storeMacro.get('acme')}/render`)),
    );
    expect(reply.body).toMatch(/^Hi Pat \(\w+\)$/);
    const resolution = RenderedMacro.parse(
      json(await call('admin', 'POST', `/api/admin/claims/${claimId}/macros/${globalMacro}/render`)),
    );
    const detail = AdminClaimDetail.parse(json(await call('admin', 'GET', `/api/admin/claims/${claimId}`)));
    expect(resolution.body).toBe(`We refunded claim #${detail.claimNumber}.`);
    expect(resolution.resolution).toEqual({ resolutionType: 'REFUND', description: 'Refund for Pat Doe' });
    expect(resolution.body + JSON.stringify(resolution.resolution)).not.toContain('{{');
  });

  it('keeps notes internal, shows the marks in the timeline, and folds a claim as of any version', async () => {
    const { claimId, token } = claims.get('acmeOwner@acme')!;
    await h.runtime.settle();
    const timeline = json<{ data: Array<{ eventType: string; version: number; summary: Record<string, unknown> }> }>(
      await call('acmeOwner', 'GET', `/api/admin/claims/${claimId}/timeline`),
    );
    const types = timeline.data.map((e) => e.eventType);
    for (const type of ['ClaimNoteAdded', 'ClaimLabelAdded', 'ClaimLabelRemoved', 'ClaimMetadataSet'])
      expect(types).toContain(type);
    expect(JSON.stringify(timeline.data)).not.toContain('Note by acmeOwner');
    const notes = ClaimNoteList.parse(json(await call('acmeOwner', 'GET', `/api/admin/claims/${claimId}/notes`))).data;
    expect(notes.map((n) => n.body)).toEqual(['Note by acmeOwner']);
    expect(notes[0]!.author.name).toBe('Alex Owner');
    // The shopper's view and messages never carry a note, a label or metadata.
    const shopper = await h.call({ method: 'GET', url: `/api/claims/${token}` });
    const messages = await h.call({ method: 'GET', url: `/api/claims/${token}/messages` });
    for (const r of [shopper, messages]) {
      expect(r.statusCode).toBe(200);
      expect(r.body).not.toMatch(/Note by|noteCount|labels|seeded|new-key/);
    }
    // As of each version: the state folded up to it.
    const current = AdminClaimDetail.parse(json(await call('acmeOwner', 'GET', `/api/admin/claims/${claimId}`)));
    const labelAdded = timeline.data.find((e) => e.eventType === 'ClaimLabelAdded')!.version;
    const atLabel = AdminClaimDetail.parse(
      json(await call('acmeOwner', 'GET', `/api/admin/claims/${claimId}?asOf=${labelAdded}`)),
    );
    expect(atLabel.version).toBe(labelAdded);
    expect(atLabel.labels).toEqual(['walk']);
    expect(current.labels).toEqual([]);
    const first = AdminClaimDetail.parse(json(await call('acmeOwner', 'GET', `/api/admin/claims/${claimId}?asOf=1`)));
    expect(first).toMatchObject({ version: 1, status: 'NEW', labels: [], metadata: {}, noteCount: 0 });
    expect(
      (await call('acmeOwner', 'GET', `/api/admin/claims/${claimId}?asOf=${current.version + 1}`)).statusCode,
    ).toBe(400);
    expect((await call('acmeOwner', 'GET', `/api/admin/claims/${claimId}?asOf=0`)).statusCode).toBe(400);
    expect((await call('kumoOwner', 'GET', `/api/admin/claims/${claimId}?asOf=1`)).statusCode).toBe(404);
  });

  it('answers a stale expectedVersion on a label with 409 and lets a create-only user not overwrite metadata', async () => {
    const { claimId } = await fileOn('acme');
    const stale = await call('acmeAgent', 'POST', `/api/admin/claims/${claimId}/labels`, {
      label: 'x',
      expectedVersion: 0,
    });
    expect(stale.statusCode).toBe(409);
    expect(
      (await call('acmeViewer', 'PUT', `/api/admin/claims/${claimId}/metadata/k`, { value: '1' })).statusCode,
    ).toBe(200);
    expect(
      (await call('acmeViewer', 'PUT', `/api/admin/claims/${claimId}/metadata/k`, { value: '2' })).statusCode,
    ).toBe(403);
    expect(
      (await call('acmeViewer', 'PUT', `/api/admin/claims/${claimId}/metadata/__proto__`, { value: '2' })).statusCode,
    ).toBe(400);
  });

  it('moves claims in bulk, one append each, with per-claim answers', async () => {
    const mine = await Promise.all([fileOn('acme'), fileOn('acme'), fileOn('acme')]);
    const kumo = await fileOn('kumo');
    const resolved = await fileOn('acme');
    await ok('acmeOwner', 'POST', `/api/admin/claims/${resolved.claimId}/resolve`, { resolutionType: 'RESHIP' });
    const missing = '00000000-0000-4000-8000-000000000001';
    const body = {
      claimIds: [...mine.map((c) => c.claimId), kumo.claimId, resolved.claimId, missing],
      to: 'OPEN',
      note: 'Triage',
    };
    const answer = BulkStatusResponse.parse(
      json(await call('acmeAgent', 'POST', '/api/admin/claims/bulk-status', body)),
    );
    expect(answer.results.map((r) => r.result)).toEqual([
      'ok',
      'ok',
      'ok',
      'not_found',
      'invalid_transition',
      'not_found',
    ]);
    expect(answer.summary).toEqual({ ok: 3, conflict: 0, invalid_transition: 1, not_found: 2, forbidden: 0 });
    expect(answer.results[0]).toMatchObject({ status: 'OPEN', version: 2 });
    // Each claim is its own stream append.
    for (const c of mine)
      expect((await readStream(h.runtime.ctx.database.db, c.claimId)).events.map((e) => e.type)).toEqual([
        'ClaimFiled',
        'ClaimStatusChanged',
      ]);
    // A stale version is a conflict for that claim only.
    const stale = BulkStatusResponse.parse(
      json(
        await call('acmeAgent', 'POST', '/api/admin/claims/bulk-status', {
          claimIds: mine.map((c) => c.claimId),
          to: 'COMMUNICATING',
          expectedVersions: { [mine[0]!.claimId]: 1, [mine[1]!.claimId]: 2 },
        }),
      ),
    );
    expect(stale.results.map((r) => r.result)).toEqual(['conflict', 'ok', 'ok']);
    expect(stale.results[0]).toMatchObject({ status: 'OPEN', version: 2 });
    // Without claim:update anywhere the whole request is refused; a visible store without it answers per claim.
    expect((await call('finance', 'POST', '/api/admin/claims/bulk-status', body)).statusCode).toBe(403);
    expect(
      (await call('acmeOwner', 'POST', '/api/admin/claims/bulk-status', { claimIds: [], to: 'OPEN' })).statusCode,
    ).toBe(400);
  });

  it("decides a claim's fate only through a resolution by someone holding claim:resolve", async () => {
    const claim = await fileOn('acme');
    const status = (user: DemoUser, body: object) =>
      call(user, 'POST', `/api/admin/claims/${claim.claimId}/status`, body);
    // A viewer (claim:update, no claim:resolve) may not close, deny or resolve, neither alone nor in bulk.
    for (const to of ['CLOSED', 'DENIED', 'RESOLVED'] as const) {
      expect((await status('acmeViewer', { status: to, reason: 'OTHER' })).statusCode).toBe(403);
    }
    const bulk = BulkStatusResponse.parse(
      json(
        await call('acmeViewer', 'POST', '/api/admin/claims/bulk-status', {
          claimIds: [claim.claimId],
          to: 'CLOSED',
          reason: 'OTHER',
        }),
      ),
    );
    expect(bulk.results[0]).toMatchObject({ result: 'forbidden', status: 'NEW' });
    // Even the owner reaches Denied or Resolved only by resolving; closing an unresolved claim needs a reason.
    const denied = await status('acmeOwner', { status: 'DENIED' });
    expect([denied.statusCode, json<{ error: string }>(denied).error]).toEqual([422, 'invalid_transition']);
    const bare = await status('acmeOwner', { status: 'CLOSED' });
    expect([bare.statusCode, json<{ error: string }>(bare).error]).toEqual([400, 'validation_failed']);
    expect((await readStream(h.runtime.ctx.database.db, claim.claimId)).events.map((e) => e.type)).toEqual([
      'ClaimFiled',
    ]);
    const closed = json<{ status: string; allowedTransitions: string[] }>(
      await status('acmeOwner', { status: 'CLOSED', reason: 'OTHER', note: 'Customer withdrew' }),
    );
    expect(closed.status).toBe('CLOSED');
    // What the page offers each caller is what the server allows them.
    const forViewer = json<{ allowedTransitions: string[] }>(
      await call('acmeViewer', 'GET', `/api/admin/claims/${(await fileOn('acme')).claimId}`),
    );
    expect(forViewer.allowedTransitions).not.toContain('CLOSED');
    expect(forViewer.allowedTransitions.filter((to) => ['DENIED', 'RESOLVED', 'APPROVED'].includes(to))).toEqual([]);
  });

  it('refuses a resolution type the store does not offer (Kumo has refunds turned off)', async () => {
    const claim = await fileOn('kumo');
    const refund = await call('kumoOwner', 'POST', `/api/admin/claims/${claim.claimId}/resolve`, {
      resolutionType: 'REFUND',
    });
    expect([refund.statusCode, json<{ error: string }>(refund).error]).toEqual([422, 'unsupported_resolution']);
    expect((await readStream(h.runtime.ctx.database.db, claim.claimId)).events.map((e) => e.type)).toEqual([
      'ClaimFiled',
    ]);
    expect(
      (await call('kumoOwner', 'POST', `/api/admin/claims/${claim.claimId}/resolve`, { resolutionType: 'RESHIP' }))
        .statusCode,
    ).toBe(200);
  });

  it('lets exactly one of two concurrent bulk changes at the same versions win each claim', async () => {
    const filed = await Promise.all(Array.from({ length: 6 }, () => fileOn('acme')));
    const ids = filed.map((c) => c.claimId);
    const expectedVersions = Object.fromEntries(ids.map((id) => [id, 1]));
    const [a, b] = await Promise.all([
      call('acmeAgent', 'POST', '/api/admin/claims/bulk-status', {
        claimIds: ids,
        to: 'WAITING_FOR_BRAND',
        expectedVersions,
      }),
      call('acmeOwner', 'POST', '/api/admin/claims/bulk-status', {
        claimIds: [...ids].reverse(),
        to: 'WAITING_FOR_CUSTOMER',
        expectedVersions,
      }),
    ]);
    const results = [...BulkStatusResponse.parse(json(a)).results, ...BulkStatusResponse.parse(json(b)).results];
    for (const id of ids) {
      const mineResults = results
        .filter((r) => r.claimId === id)
        .map((r) => r.result)
        .sort();
      expect(mineResults, id).toEqual(['conflict', 'ok']);
      const { events } = await readStream(h.runtime.ctx.database.db, id);
      expect(events.map((e) => e.type)).toEqual(['ClaimFiled', 'ClaimStatusChanged']);
      const winner = results.find((r) => r.claimId === id && r.result === 'ok')!;
      expect((events[1]!.data as { to: string }).to).toBe(winner.status);
    }
  });

  it('runs the SLA timers on an injected clock: due claims move by a normal command, once, even with two schedulers', async () => {
    const ctx = h.runtime.ctx;
    const [customer, brand, kumoBrand, fresh] = await Promise.all([
      fileOn('acme'),
      fileOn('acme'),
      fileOn('kumo'),
      fileOn('acme'),
    ]);
    await ok('acmeAgent', 'POST', `/api/admin/claims/${customer.claimId}/status`, { status: 'WAITING_FOR_CUSTOMER' });
    await ok('acmeAgent', 'POST', `/api/admin/claims/${brand.claimId}/status`, { status: 'WAITING_FOR_BRAND' });
    await ok('kumoOwner', 'POST', `/api/admin/claims/${kumoBrand.claimId}/status`, { status: 'WAITING_FOR_BRAND' });
    // A note does not restart a timer.
    await ok('acmeAgent', 'POST', `/api/admin/claims/${customer.claimId}/notes`, { body: 'Chased by email' });
    await sql`update stores set settings = jsonb_set(settings, '{sla}', '{"waitingForBrandHours": 2}') where slug = 'kumo'`.execute(
      ctx.database.db,
    );
    await h.runtime.settle();
    const watched = new Set([customer.claimId, brand.claimId, kumoBrand.claimId, fresh.claimId]);
    const sweep = async (ms: number) =>
      (await runSlaSweep(ctx, new Date(Date.now() + ms).toISOString())).moved.filter((m) => watched.has(m.claimId));

    expect(await sweep(60_000)).toEqual([]);
    expect(await sweep(3 * 3_600_000)).toEqual([
      { claimId: kumoBrand.claimId, from: 'WAITING_FOR_BRAND', to: 'WAITING_FOR_OP' },
    ]);
    await h.runtime.settle();
    expect(await sweep(3 * 3_600_000)).toEqual([]);
    // Eight days on, with two schedulers racing: each due claim moves exactly once.
    const at = new Date(Date.now() + 8 * DAY).toISOString();
    const both = await Promise.all([runSlaSweep(ctx, at), runSlaSweep(ctx, at)]);
    const moved = both.flatMap((r) => r.moved).filter((m) => watched.has(m.claimId));
    expect(moved.map((m) => m.claimId).sort()).toEqual([customer.claimId, brand.claimId].sort());
    const closed = AdminClaimDetail.parse(json(await call('admin', 'GET', `/api/admin/claims/${customer.claimId}`)));
    expect(closed.status).toBe('CLOSED');
    const last = (await readStream(ctx.database.db, customer.claimId)).events.at(-1)!;
    expect(last).toMatchObject({
      type: 'ClaimStatusChanged',
      data: { from: 'WAITING_FOR_CUSTOMER', to: 'CLOSED', reason: 'NO_RESPONSE' },
      metadata: { actor: { type: 'system', id: 'sla' } },
    });
    expect(AdminClaimDetail.parse(json(await call('admin', 'GET', `/api/admin/claims/${brand.claimId}`))).status).toBe(
      'WAITING_FOR_OP',
    );
    expect(AdminClaimDetail.parse(json(await call('admin', 'GET', `/api/admin/claims/${fresh.claimId}`))).status).toBe(
      'NEW',
    );
    await h.runtime.settle();
    const timeline = TimelineResponse.parse(
      json(await call('admin', 'GET', `/api/admin/claims/${customer.claimId}/timeline`)),
    );
    // The claim's own last line (its mail, on a stream of its own, may be recorded later).
    expect(timeline.data.filter((e) => e.source === 'claim').at(-1)).toMatchObject({
      eventType: 'ClaimStatusChanged',
      actor: { type: 'system', id: 'sla' },
      summary: { to: 'CLOSED', reason: 'NO_RESPONSE' },
    });
    expect((await runSlaSweep(ctx, at)).moved.filter((m) => watched.has(m.claimId))).toEqual([]);
  });

  it("invites a member who accepts with the one-time token, signs in, and every change is in the account's audit stream", async () => {
    const acme = storeIds.get('acme')!;
    const team = `/api/admin/stores/${acme}/team-members`;
    const invited = await ok<{ member: { userId: string; status: string } }>('acmeOwner', 'POST', team, {
      email: 'Nina@Acme.test',
      name: 'Nina New',
      role: 'store_admin',
    });
    expect(invited.member.status).toBe('invited');
    const invitationToken = await mailedInvitationToken(h.runtime, 'nina@acme.test');
    const login = () =>
      h.call({
        method: 'POST',
        url: '/api/auth/login',
        body: { email: 'nina@acme.test', password: 'a-long-password-1' },
      });
    expect((await login()).statusCode).toBe(401);
    const accept = (token: string) =>
      h.call({ method: 'POST', url: '/api/auth/invitations/accept', body: { token, password: 'a-long-password-1' } });
    expect((await accept(invitationToken)).statusCode).toBe(200);
    expect((await accept(invitationToken)).statusCode).toBe(404);
    const signedIn = await login();
    expect(signedIn.statusCode).toBe(200);
    const nina = String(signedIn.headers['set-cookie']).split(';')[0]!;
    // Inviting the same email again is a 409; a store admin cannot grant ownership, and no one changes themselves.
    expect(
      (await call('acmeOwner', 'POST', team, { email: 'nina@acme.test', name: 'Nina', role: 'store_user' })).statusCode,
    ).toBe(409);
    const other = (
      await ok<{ member: { userId: string } }>('acmeOwner', 'POST', team, {
        email: 'omar@acme.test',
        name: 'Omar',
        role: 'store_user',
      })
    ).member.userId;
    const asNina = (method: 'POST' | 'DELETE', url: string, body?: unknown) =>
      h.call({ method, url, cookie: nina, body });
    expect((await asNina('POST', `${team}/${other}/ownership`, { level: 'store' })).statusCode).toBe(403);
    expect((await asNina('POST', `${team}/${other}/role`, { role: 'store_owner' })).statusCode).toBe(403);
    expect((await asNina('POST', `${team}/${other}/role`, { role: 'account_admin' })).statusCode).toBe(403);
    expect((await asNina('POST', `${team}/${other}/role`, { role: 'store_support' })).statusCode).toBe(200);
    expect((await asNina('POST', `${team}/${invited.member.userId}/role`, { role: 'store_owner' })).statusCode).toBe(
      422,
    );
    expect(
      json<{ error: string }>(await asNina('POST', `${team}/${invited.member.userId}/role`, { role: 'store_user' }))
        .error,
    ).toBe('cannot_change_self');
    expect((await asNina('POST', `${team}/${other}/role`, { role: 'orderprotection_admin' })).statusCode).toBe(403);
    // The owner may; a kumo owner does not even see acme's members.
    expect((await call('acmeOwner', 'POST', `${team}/${other}/ownership`, { level: 'account' })).statusCode).toBe(200);
    expect((await call('kumoOwner', 'GET', team)).statusCode).toBe(404);
    expect((await asNina('DELETE', `${team}/${other}`)).statusCode).toBe(403); // an account owner now: owners only
    expect((await call('acmeOwner', 'DELETE', `${team}/${other}`)).statusCode).toBe(204);

    const { rows } = await sql<{ id: string }>`select id from accounts where slug = 'acme-group'`.execute(
      h.runtime.ctx.database.db,
    );
    const audit = (await readStream(h.runtime.ctx.database.db, rows[0]!.id)).events.filter((e) =>
      JSON.stringify(e.data).match(/nina|omar/i),
    );
    expect(audit.map((e) => e.type)).toEqual([
      'TeamMemberInvited',
      'TeamInvitationAccepted',
      'TeamMemberInvited',
      'TeamMemberRoleChanged',
      'TeamOwnershipGranted',
      'TeamMemberRemoved',
    ]);
    expect(audit[3]).toMatchObject({
      data: { from: ['store_user'], to: 'store_support' },
      metadata: { actor: { type: 'user', id: invited.member.userId } },
    });
    expect(audit[5]).toMatchObject({ data: { roles: ['account_owner'] } });
  });

  it('lists SOPs by state and refuses an illegal SOP move', async () => {
    const acme = storeIds.get('acme')!;
    const sop = await ok<{ id: string; state: string }>('acmeOwner', 'POST', `/api/admin/stores/${acme}/sops`, {
      title: 'Refunds',
      body: '1.',
    });
    expect(sop.state).toBe('draft');
    await ok('acmeOwner', 'POST', `/api/admin/stores/${acme}/sops/${sop.id}/state`, { state: 'archived' });
    const illegal = await call('acmeOwner', 'POST', `/api/admin/stores/${acme}/sops/${sop.id}/state`, {
      state: 'active',
    });
    expect(illegal.statusCode).toBe(422);
    expect(
      (await call('acmeOwner', 'PUT', `/api/admin/stores/${acme}/sops/${sop.id}`, { title: 'x', body: 'y' }))
        .statusCode,
    ).toBe(422);
    const archived = SopList.parse(
      json(await call('acmeOwner', 'GET', `/api/admin/stores/${acme}/sops?state=archived`)),
    ).data;
    expect(archived.map((s) => s.id)).toContain(sop.id);
    expect(archived.every((s) => s.state === 'archived')).toBe(true);
    const stale = await call('acmeOwner', 'POST', `/api/admin/stores/${acme}/sops/${sop.id}/state`, {
      state: 'draft',
      expectedVersion: 1,
    });
    expect(stale.statusCode).toBe(409);
  });
});
