import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { LightMyRequestResponse } from 'fastify';
import { InviteMemberResponse, MeResponse, TeamMember, TeamMemberList } from '@claims/contracts';
import { DEMO_PASSWORD, json, startHarness, type Harness } from './support/backofficeHarness.js';
import { mailedInvitationToken } from './support/invitations.js';

/**
 * Order Protection's support staff, managed by the support admin (demo: Suki, support-admin@) and the admin:
 * who may, what an invitation grants, and that support never loses its last admin.
 */
describe('support users', () => {
  let h: Harness;
  const cookies = new Map<string, string>();

  const login = async (email: string, password = DEMO_PASSWORD) =>
    h.call({ method: 'POST', url: '/api/auth/login', body: { email, password } });
  const cookieOf = async (email: string, password = DEMO_PASSWORD) => {
    const response = await login(email, password);
    expect(response.statusCode, `login of ${email}`).toBe(200);
    return String(response.headers['set-cookie']).split(';')[0]!;
  };
  const as = (email: string) => cookies.get(email)!;
  const list = async (email = 'admin@orderprotection.test') =>
    TeamMemberList.parse(json(await h.call({ method: 'GET', url: '/api/admin/support-users', cookie: as(email) })))
      .data;
  const memberOf = async (email: string) => (await list()).find((m) => m.email === email);
  const invite = (by: string, body: unknown) =>
    h.call({ method: 'POST', url: '/api/admin/support-users', cookie: as(by), body });
  const changeRole = (by: string, userId: string, role: string) =>
    h.call({ method: 'POST', url: `/api/admin/support-users/${userId}/role`, cookie: as(by), body: { role } });
  const remove = (by: string, userId: string) =>
    h.call({ method: 'DELETE', url: `/api/admin/support-users/${userId}`, cookie: as(by) });
  const errorOf = (response: LightMyRequestResponse) => [response.statusCode, json<{ error: string }>(response).error];
  /** An invitee accepts through the invitation-acceptance endpoint with the token their mail carries, then signs in. */
  const accept = async (email: string, password: string, name?: string) => {
    const token = await mailedInvitationToken(h.runtime, email);
    return h.call({ method: 'POST', url: '/api/auth/invitations/accept', body: { token, password, name } });
  };

  beforeAll(async () => {
    h = await startHarness();
    for (const email of [
      'support-admin@orderprotection.test',
      'admin@orderprotection.test',
      'support@orderprotection.test',
      'finance@orderprotection.test',
      'owner@acme.test',
      'agent@acme.test',
    ]) {
      cookies.set(email, await cookieOf(email));
    }
  });
  afterAll(() => h.stop());

  it('lists the holders of the two support roles to the support admin and the admin, and refuses every other role', async () => {
    const staff = await list('support-admin@orderprotection.test');
    expect(staff.map((m) => [m.email, m.grants.map((g) => g.role)])).toEqual([
      ['support-admin@orderprotection.test', ['orderprotection_support_admin']],
      ['support@orderprotection.test', ['orderprotection_support']],
    ]);
    expect(staff[0]!.grants[0]).toEqual({
      role: 'orderprotection_support_admin',
      level: 'internal',
      accountId: null,
      storeId: null,
    });
    expect(await list()).toEqual(staff);
    const sam = staff.find((m) => m.email === 'support@orderprotection.test')!;
    for (const email of [
      'support@orderprotection.test',
      'finance@orderprotection.test',
      'owner@acme.test',
      'agent@acme.test',
    ]) {
      const answers = await Promise.all([
        h.call({ method: 'GET', url: '/api/admin/support-users', cookie: as(email) }),
        invite(email, { email: 'nobody@orderprotection.test', name: 'Nobody', role: 'orderprotection_support' }),
        changeRole(email, sam.userId, 'orderprotection_support_admin'),
        remove(email, sam.userId),
      ]);
      expect(
        answers.map((r) => r.statusCode),
        email,
      ).toEqual([403, 403, 403, 403]);
    }
    expect((await h.call({ method: 'GET', url: '/api/admin/support-users' })).statusCode).toBe(401);
    expect(await memberOf('nobody@orderprotection.test')).toBeUndefined();
  });

  it('invites by email: the invitee sets a password through the invitation, then signs in holding the support role', async () => {
    const response = await invite('support-admin@orderprotection.test', {
      email: 'nova@orderprotection.test',
      name: 'Nova New',
      role: 'orderprotection_support',
    });
    expect(response.statusCode).toBe(201);
    expect(response.body).not.toMatch(/token/i);
    const { member, pending } = InviteMemberResponse.parse(json(response));
    expect(pending).toBe(false);
    expect(member).toMatchObject({
      email: 'nova@orderprotection.test',
      status: 'invited',
      grants: [{ role: 'orderprotection_support', level: 'internal' }],
    });
    // Nobody signs in as an invitee before they accept.
    expect((await login('nova@orderprotection.test', 'a-long-new-password')).statusCode).toBe(401);

    const accepted = await accept('nova@orderprotection.test', 'a-long-new-password', 'Nova Support');
    expect(accepted.statusCode).toBe(200);
    expect(json(accepted)).toEqual({ userId: member.userId, email: 'nova@orderprotection.test' });
    const signedIn = await login('nova@orderprotection.test', 'a-long-new-password');
    expect(signedIn.statusCode).toBe(200);
    const me = MeResponse.parse(json(signedIn));
    expect(me.roles).toEqual(['orderprotection_support']);
    expect(me.user.name).toBe('Nova Support');
    cookies.set('nova@orderprotection.test', String(signedIn.headers['set-cookie']).split(';')[0]!);
    // She works the desk on every store, and does not manage support staff.
    expect(
      (await h.call({ method: 'GET', url: '/api/admin/claims', cookie: as('nova@orderprotection.test') })).statusCode,
    ).toBe(200);
    expect(
      (await h.call({ method: 'GET', url: '/api/admin/support-users', cookie: as('nova@orderprotection.test') }))
        .statusCode,
    ).toBe(403);
    expect(await memberOf('nova@orderprotection.test')).toMatchObject({ status: 'active', name: 'Nova Support' });

    // Every change is an event of the support team's stream, with who made it.
    const { rows } = await sql<{ type: string; actor: string }>`
      select type, metadata->'actor'->>'id' as actor from events where stream_id = 'support-team' and data->>'userId' = ${member.userId} order by global_position`.execute(
      h.runtime.ctx.database.db,
    );
    const suki = (await memberOf('support-admin@orderprotection.test'))!.userId;
    expect(rows).toEqual([
      { type: 'SupportUserInvited', actor: suki },
      { type: 'SupportInvitationAccepted', actor: member.userId },
    ]);
  });

  it('refuses an address that is already a support member or already has an account, and a role that is not a support role', async () => {
    const refusals = [
      {
        email: 'support@orderprotection.test',
        name: 'Sam',
        role: 'orderprotection_support',
        refused: [409, 'already_member'],
      },
      { email: 'agent@acme.test', name: 'Riley', role: 'orderprotection_support', refused: [409, 'already_exists'] },
      { email: 'x@orderprotection.test', name: 'X', role: 'store_support', refused: [400, 'validation_failed'] },
      {
        email: 'x@orderprotection.test',
        name: 'X',
        role: 'orderprotection_admin',
        refused: [400, 'validation_failed'],
      },
    ];
    for (const { refused, ...body } of refusals)
      expect(
        errorOf(await invite('support-admin@orderprotection.test', body)),
        `${body.email} as ${body.role}`,
      ).toEqual(refused);
    // The merchant's own roles are untouched.
    expect(
      MeResponse.parse(json(await h.call({ method: 'GET', url: '/api/auth/me', cookie: as('agent@acme.test') }))).roles,
    ).toEqual(['store_support']);
  });

  it('never demotes or removes the last active support admin, whoever asks; an invited admin does not count', async () => {
    const suki = (await memberOf('support-admin@orderprotection.test'))!;
    expect(
      errorOf(await changeRole('support-admin@orderprotection.test', suki.userId, 'orderprotection_support')),
    ).toEqual([409, 'last_support_admin']);
    expect(errorOf(await remove('support-admin@orderprotection.test', suki.userId))).toEqual([
      409,
      'last_support_admin',
    ]);
    expect(errorOf(await remove('admin@orderprotection.test', suki.userId))).toEqual([409, 'last_support_admin']);
    const invited = await invite('support-admin@orderprotection.test', {
      email: 'ines@orderprotection.test',
      name: 'Ines Invited',
      role: 'orderprotection_support_admin',
    });
    expect(invited.statusCode).toBe(201);
    expect(
      errorOf(await changeRole('support-admin@orderprotection.test', suki.userId, 'orderprotection_support')),
    ).toEqual([409, 'last_support_admin']);
    expect(await memberOf('support-admin@orderprotection.test')).toEqual(suki);
  });

  it('changes a member between the two support roles; with another admin, an admin may step down', async () => {
    const nova = (await memberOf('nova@orderprotection.test'))!;
    const promoted = await changeRole(
      'support-admin@orderprotection.test',
      nova.userId,
      'orderprotection_support_admin',
    );
    expect(promoted.statusCode).toBe(200);
    expect(TeamMember.parse(json(promoted)).grants.map((g) => g.role)).toEqual(['orderprotection_support_admin']);
    // Grants are read on every request: her open session manages support staff at once.
    expect(
      (await h.call({ method: 'GET', url: '/api/admin/support-users', cookie: as('nova@orderprotection.test') }))
        .statusCode,
    ).toBe(200);

    const suki = (await memberOf('support-admin@orderprotection.test'))!;
    expect(
      (await changeRole('support-admin@orderprotection.test', suki.userId, 'orderprotection_support')).statusCode,
    ).toBe(200);
    expect((await memberOf('support-admin@orderprotection.test'))!.grants.map((g) => g.role)).toEqual([
      'orderprotection_support',
    ]);
    expect(
      (
        await h.call({
          method: 'GET',
          url: '/api/admin/support-users',
          cookie: as('support-admin@orderprotection.test'),
        })
      ).statusCode,
    ).toBe(403);
    // Nova is now the last active admin.
    expect(errorOf(await remove('nova@orderprotection.test', nova.userId))).toEqual([409, 'last_support_admin']);
    expect(
      (await changeRole('nova@orderprotection.test', suki.userId, 'orderprotection_support_admin')).statusCode,
    ).toBe(200);
  });

  it('lets exactly one of two admins demoting each other at once through', async () => {
    const [suki, nova] = await Promise.all([
      memberOf('support-admin@orderprotection.test'),
      memberOf('nova@orderprotection.test'),
    ]);
    const answers = await Promise.all([
      changeRole('support-admin@orderprotection.test', nova!.userId, 'orderprotection_support'),
      changeRole('nova@orderprotection.test', suki!.userId, 'orderprotection_support'),
    ]);
    const statuses = answers.map((r) => r.statusCode).sort();
    // The second decided again on the first's outcome: its caller was no longer an admin (403) or met the rule (409).
    expect(statuses[0]).toBe(200);
    expect([403, 409]).toContain(statuses[1]);
    const admins = (await list()).filter(
      (m) => m.status === 'active' && m.grants.some((g) => g.role === 'orderprotection_support_admin'),
    );
    expect(admins).toHaveLength(1);
  });

  it("removes a member: their support role ends at once; a removed invitee's link no longer works, and the address may be invited again", async () => {
    const sam = (await memberOf('support@orderprotection.test'))!;
    expect((await remove('admin@orderprotection.test', sam.userId)).statusCode).toBe(204);
    expect(await memberOf('support@orderprotection.test')).toBeUndefined();
    expect(
      MeResponse.parse(
        json(await h.call({ method: 'GET', url: '/api/auth/me', cookie: as('support@orderprotection.test') })),
      ).roles,
    ).toEqual([]);
    expect(errorOf(await remove('admin@orderprotection.test', sam.userId))).toEqual([404, 'not_found']);
    // A merchant is no support member: nothing to remove.
    const agent = MeResponse.parse(
      json(await h.call({ method: 'GET', url: '/api/auth/me', cookie: as('agent@acme.test') })),
    ).user.id;
    expect(errorOf(await remove('admin@orderprotection.test', agent))).toEqual([404, 'not_found']);

    const ines = (await memberOf('ines@orderprotection.test'))!;
    const token = await mailedInvitationToken(h.runtime, 'ines@orderprotection.test');
    expect((await remove('admin@orderprotection.test', ines.userId)).statusCode).toBe(204);
    const late = await h.call({
      method: 'POST',
      url: '/api/auth/invitations/accept',
      body: { token, password: 'a-long-new-password' },
    });
    expect(errorOf(late)).toEqual([404, 'invitation_not_found']);
    const again = await invite('admin@orderprotection.test', {
      email: 'ines@orderprotection.test',
      name: 'Ines Again',
      role: 'orderprotection_support',
    });
    expect(again.statusCode).toBe(201);
    expect((await accept('ines@orderprotection.test', 'another-long-password')).statusCode).toBe(200);
    expect(MeResponse.parse(json(await login('ines@orderprotection.test', 'another-long-password'))).roles).toEqual([
      'orderprotection_support',
    ]);
  });
});
