import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { Page } from 'playwright-core';
import { PROJECTIONS } from '@claims/projections';
import { apiSession, expectAccessible, heading, signIn, fileHarness } from './harness.js';

const h = fileHarness();

beforeAll(async () => {
  await h.runtime.settle();
});

/** The first ClaimFiled event of the demo data: the one these tests park, as a consumer that cannot apply it would. */
async function firstClaimFiled() {
  const { rows } = await sql<{ event_id: string; stream_id: string; stream_version: number; type: string }>`
    select event_id, stream_id, stream_version, type from events where type = 'ClaimFiled' order by global_position limit 1`.execute(
    h.runtime.ctx.database.db,
  );
  return rows[0]!;
}

const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main' });
const projectorsTable = (page: Page) => page.getByRole('table', { name: 'Projectors: position, lag and state' });
/** The cells of a projector's row: name (row header), source, position, lag in events, lag in time, state, parked. */
const projectorCells = (page: Page, name: string) =>
  projectorsTable(page)
    .getByRole('row', { name: new RegExp(`^${name} `) })
    .getByRole('cell');

describe('back-office operations page', () => {
  it("shows Order Protection's admin every projector caught up, and lets them skip a parked event", async () => {
    const { page, problems } = await h.newPage();
    await signIn(page, 'admin@orderprotection.test');
    await mainNav(page).getByRole('link', { name: 'Operations' }).click();
    await expect.poll(() => heading(page).textContent()).toBe('Operations');

    for (const { name } of PROJECTIONS) {
      await expect.poll(() => projectorCells(page, name).nth(2).textContent()).toBe('0');
      expect(await projectorCells(page, name).nth(3).textContent()).toBe('0 s');
      expect(await projectorCells(page, name).nth(4).textContent()).toBe('running');
      expect(await projectorCells(page, name).nth(5).textContent()).toBe('0');
    }
    await page.getByRole('status').filter({ hasText: 'Every component is ready.' }).waitFor();
    await page.getByRole('heading', { level: 2, name: 'Reactions' }).waitFor();
    await page.getByText('No Kafka configured').waitFor();
    await expectAccessible(page);

    // A parked event (as a projector leaves one it cannot apply) appears at the next refresh.
    const db = h.runtime.ctx.database.db;
    const event = await firstClaimFiled();
    await sql`
      insert into projection_parked (projection, event_id, stream_id, stream_version, type, error, attempts)
      values ('claim-timeline', ${event.event_id}::uuid, ${event.stream_id}, ${event.stream_version}, ${event.type}, 'column "x" does not exist', 5)`.execute(
      db,
    );
    const parkedRow = page.getByRole('table', { name: 'Parked events' }).getByRole('row', { name: /ClaimFiled/ });
    await parkedRow.waitFor();
    expect(await parkedRow.textContent()).toContain('column "x" does not exist');
    await page.getByRole('status').filter({ hasText: '1 component failing. 1 parked event.' }).waitFor();
    await expect.poll(() => projectorCells(page, 'claim-timeline').nth(5).textContent()).toBe('1');

    await parkedRow.getByRole('button', { name: /^Skip ClaimFiled/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Skip this event for good?' });
    await dialog.getByRole('button', { name: 'Skip event' }).click();
    await page.getByText(`claim-timeline skipped the ClaimFiled event of ${event.stream_id} for good.`).waitFor();
    await page.getByText('No parked events.').waitFor();
    await expectAccessible(page);
    expect(problems).toEqual([]);
  });

  it("lists a reaction's parked event beside the projectors and retries it from the keyboard", async () => {
    const { page, problems } = await h.newPage();
    await signIn(page, 'admin@orderprotection.test');
    await page.goto('/admin/operations');
    await page.getByRole('status').filter({ hasText: 'Every component is ready.' }).waitFor();

    // A filing notify-shopper gave up on after its tries (as startReaction parks one), its mail record refused.
    const db = h.runtime.ctx.database.db;
    const event = await firstClaimFiled();
    await sql`
      insert into reaction_parked (reaction, event_id, stream_id, stream_version, type, error, attempts)
      values ('notify-shopper', ${event.event_id}::uuid, ${event.stream_id}, ${event.stream_version}, ${event.type}, 'mail record refused', 5)`.execute(
      db,
    );

    const reactionsTable = page.getByRole('table', { name: 'Reactions: position, lag and state' });
    await expect
      .poll(() =>
        reactionsTable
          .getByRole('row', { name: /^notify-shopper / })
          .getByRole('cell')
          .nth(4)
          .textContent(),
      )
      .toBe('1');
    const parkedRow = page.getByRole('table', { name: 'Parked events' }).getByRole('row', { name: /ClaimFiled/ });
    expect(await parkedRow.textContent()).toContain('mail record refused');
    expect(await parkedRow.textContent()).toContain('reaction');
    await page.getByRole('status').filter({ hasText: '1 component failing. 1 parked event.' }).waitFor();
    expect(
      await page
        .getByRole('table', { name: 'Readiness of each component' })
        .getByRole('row', { name: /^reactions / })
        .textContent(),
    ).toContain('notify-shopper 1');
    await expectAccessible(page);

    const retry = parkedRow.getByRole('button', { name: `Retry ClaimFiled of ${event.stream_id} in notify-shopper` });
    await retry.focus();
    await page.keyboard.press('Enter');
    await page
      .getByText(`notify-shopper handled the ClaimFiled event of ${event.stream_id}; it is no longer parked.`)
      .waitFor();
    await page.getByText('No parked events.').waitFor();
    await page.getByRole('status').filter({ hasText: 'Every component is ready.' }).waitFor();
    const { rows: audit } = await sql<{ resolution: string; resolved_by: string }>`
      select resolution, resolved_by from reaction_parked where reaction = 'notify-shopper' and event_id = ${event.event_id}::uuid`.execute(
      db,
    );
    const { rows: admins } = await sql<{
      id: string;
    }>`select id from users where email = 'admin@orderprotection.test'`.execute(db);
    expect(audit).toEqual([{ resolution: 'handled', resolved_by: admins[0]!.id }]);
    await expectAccessible(page);
    expect(problems).toEqual([]);
  });

  it("lists a parked webhook delivery and makes it due again on the admin's retry", async () => {
    const db = h.runtime.ctx.database.db;
    const { rows: stores } = await sql<{ id: string }>`select id from stores where slug = 'acme'`.execute(db);
    const acme = stores[0]!.id;
    // What `make dev` and the tests set (contract): this receiver is on loopback (and answers 404).
    h.runtime.ctx.config.webhookAllowPrivateUrls = true;
    const owner = await apiSession(h.baseUrl, 'owner@acme.test');
    const created = await owner.post(`/api/admin/stores/${acme}/webhook-endpoints`, {
      url: `${h.baseUrl}/no-receiver-here`,
      eventTypes: ['claim.filed'],
    });
    expect(created.status).toBe(201);
    const endpoint = (await created.json()) as { id: string };
    // A delivery whose processing failed every try, as the delivery worker parks one: pending, with no next attempt.
    const { rows: deliveries } = await sql<{ id: string }>`
      insert into webhook_deliveries (id, endpoint_id, store_id, event_id, event_type, webhook_id, payload, status, next_attempt_at, occurred_at)
      values (gen_random_uuid(), ${endpoint.id}::uuid, ${acme}::uuid, gen_random_uuid(), 'claim.filed', 'msg_parked_in_e2e', '{"type":"claim.filed"}', 'pending', null, now())
      returning id`.execute(db);
    const deliveryId = deliveries[0]!.id;
    await sql`insert into webhook_delivery_parked (delivery_id, error, failures) values (${deliveryId}::uuid, 'attempt record refused', 5)`.execute(
      db,
    );

    const { page, problems } = await h.newPage();
    await signIn(page, 'admin@orderprotection.test');
    await page.goto('/admin/operations');
    const row = page
      .getByRole('table', { name: 'Parked webhook deliveries' })
      .getByRole('row', { name: /msg_parked_in_e2e/ });
    await row.waitFor();
    expect(await row.textContent()).toContain('attempt record refused');
    await page.getByRole('status').filter({ hasText: '1 component failing. 1 parked webhook delivery.' }).waitFor();
    await expectAccessible(page);

    await row.getByRole('button', { name: 'Retry delivery msg_parked_in_e2e' }).click();
    await page.getByText('The claim.filed delivery msg_parked_in_e2e is due again.').waitFor();
    await page.getByText('No parked webhook deliveries.').waitFor();
    // The worker tried it (a 404 is the receiver's failure, retried on the delivery's own schedule).
    await expect
      .poll(
        async () =>
          (
            await sql<{ count: number }>`
      select count(*)::int as count from webhook_delivery_attempts where delivery_id = ${deliveryId}::uuid`.execute(db)
          ).rows[0]!.count,
      )
      .toBeGreaterThan(0);
    const { rows: audit } = await sql<{
      resolution: string;
    }>`select resolution from webhook_delivery_parked where delivery_id = ${deliveryId}::uuid`.execute(db);
    expect(audit).toEqual([{ resolution: 'retried' }]);
    expect(problems).toEqual([]);
  });

  it('rebuilds a projector from its row, showing the progress of a running rebuild and then the rebuilt count', async () => {
    const { page, problems } = await h.newPage();
    await signIn(page, 'admin@orderprotection.test');
    await page.goto('/admin/operations');
    const db = h.runtime.ctx.database.db;
    // A rebuild running in another process, as the page reads it (projection_rebuilds).
    await sql`insert into projection_rebuilds (projection, status, done, total) values ('invoices', 'running', 3, 12)
      on conflict (projection) do update set status = 'running', done = 3, total = 12`.execute(db);
    const invoices = projectorsTable(page).getByRole('row', { name: /^invoices / });
    await invoices.getByRole('progressbar', { name: 'Rebuild of invoices' }).waitFor();
    expect(await invoices.getByText('Rebuilding beside the live version: 3 of 12 events.').count()).toBe(1);
    expect(await invoices.getByRole('button', { name: 'Rebuild invoices' }).isDisabled()).toBe(true);
    await expectAccessible(page);
    await sql`update projection_rebuilds set status = 'done', done = 12, finished_at = now() where projection = 'invoices'`.execute(
      db,
    );

    const { rows } = await sql<{
      count: number;
    }>`select count(*)::int as count from events where type = any(${['ClaimFiled', 'ClaimStatusChanged', 'ClaimResolved', 'ClaimMessageSent', 'ClaimNoteAdded', 'ClaimLabelAdded', 'ClaimLabelRemoved', 'ClaimMetadataSet', 'ClaimAssigned']}::text[])`.execute(
      db,
    );
    const claims = await sql<{ count: number }>`select count(*)::int as count from claim_list`.execute(db);
    const claimList = projectorsTable(page).getByRole('row', { name: /^claim-list / });
    await claimList.getByRole('button', { name: 'Rebuild claim-list' }).click();
    await claimList.getByText(`from ${rows[0]!.count} events.`, { exact: false }).waitFor();
    // The switched-in version holds the same claims.
    expect(
      (await sql<{ count: number }>`select count(*)::int as count from claim_list`.execute(db)).rows[0]!.count,
    ).toBe(claims.rows[0]!.count);
    await expectAccessible(page);
    expect(problems).toEqual([]);
  });

  it('offers a merchant owner no operations link, and the API refuses them', async () => {
    const { page, problems } = await h.newPage([{ status: 403, path: '/api/admin/operations' }]);
    await signIn(page, 'owner@acme.test');
    await mainNav(page).getByRole('link', { name: 'Analytics' }).waitFor();
    expect(await mainNav(page).getByRole('link', { name: 'Operations' }).count()).toBe(0);

    const owner = await apiSession(h.baseUrl, 'owner@acme.test');
    expect((await owner.get('/api/admin/operations')).status).toBe(403);
    expect(
      (await owner.post('/api/admin/operations/parked/claim-list/00000000-0000-4000-8000-000000000000/skip', {}))
        .status,
    ).toBe(403);

    // Typed in by hand, the page says why it shows nothing.
    await page.goto('/admin/operations');
    await page.getByRole('alert').filter({ hasText: 'admin-stores:read' }).waitFor();
    expect(problems).toEqual([]);
  });
});
