import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import {
  AccountView,
  DomainEvent,
  invitationMailStreamOf,
  StoreOnboardingView,
  TeamMemberList,
} from '@claims/contracts';
import { readStream } from '@claims/event-store';
import { eventually } from '../../../test/support/testDatabase.js';
import { deliverInvitationMail } from '../src/notifications/deliverInvitationMail.js';
import { mailedInvitationToken } from './support/invitations.js';
import { json, startHarness, type Harness } from './support/backofficeHarness.js';
import { startSmtp, startGate } from '../../../test/support/smtpServers.js';
import { testMailer } from './support/testMailer.js';

const recipients = (mail: ParsedMail) => (mail.to && 'text' in mail.to ? mail.to.text : '');
const mailTo = (received: ParsedMail[], email: string) => received.filter((m) => recipients(m).includes(email));
const invitationToken = (mail: ParsedMail) =>
  /https:\/\/claims\.example\.test\/admin\/accept-invitation#([A-Za-z0-9_-]{43})/.exec(mail.text ?? '')?.[1];
const mailEvents = async (h: Harness, userId: string) =>
  (await readStream(h.runtime.ctx.database.db, invitationMailStreamOf(userId))).events.map((e) =>
    DomainEvent.parse({ type: e.type, data: e.data }),
  );
const accept = (h: Harness, token: string, password = 'a-long-password-1') =>
  h.call({ method: 'POST', url: '/api/auth/invitations/accept', body: { token, password } });

/** Production's settings: what `NODE_ENV=production` turns on (no demo seeding; the demo rows come from the test's template). */
const PRODUCTION = {
  NODE_ENV: 'production',
  RATE_LIMIT_ENABLED: 'true',
  PASSWORD_SCRYPT_N: String(2 ** 17),
  PUBLIC_URL: 'https://claims.example.test',
  METRICS_TOKEN: 'metrics-token-of-the-test',
};

describe('invitations are mailed to the invitee, with their link, in every environment (contract §Notifications)', () => {
  describe('with NODE_ENV=production and a working SMTP server', () => {
    let h: Harness;
    let smtp: Awaited<ReturnType<typeof startSmtp>>;
    beforeAll(async () => {
      smtp = await startSmtp();
      h = await startHarness({ ...PRODUCTION, SMTP_URL: `smtp://127.0.0.1:${smtp.port}` });
    });
    afterAll(async () => {
      await h.stop();
      await smtp.stop();
    });

    it("mails a store team's invitation once, with a link that accepts it, and records the mail in the invitee's stream", async () => {
      expect(h.runtime.ctx.config.production).toBe(true);
      const owner = await h.login('acmeOwner');
      const acme = await h.storeId('acme');
      const invited = await h.invite(owner, acme, {
        email: 'ines@acme.test',
        name: 'Ines Agent',
        role: 'store_support',
      });
      const userId = json<{ member: { userId: string } }>(invited).member.userId;
      const mail = await eventually(async () => {
        const [found] = mailTo(smtp.received, 'ines@acme.test');
        expect(found).toBeDefined();
        return found!;
      });
      expect(mail.subject).toBe("You are invited to Acme Outfitters's team");
      expect(mail.text).toContain('Store support');
      // In the store's branding: its SVG logo as an inline PNG part.
      expect(mail.attachments).toMatchObject([{ contentType: 'image/png', related: true }]);
      expect(mail.html).toContain(`src="cid:${mail.attachments[0]!.cid}"`);
      const token = invitationToken(mail)!;
      expect(token).toBeDefined();
      expect(invited.body).not.toContain(token);
      await h.runtime.settle();
      expect(mailTo(smtp.received, 'ines@acme.test')).toHaveLength(1);
      expect(await mailEvents(h, userId)).toEqual([
        {
          type: 'InvitationMailSent',
          data: expect.objectContaining({ to: 'ines@acme.test', attempt: 1, storeId: acme, subject: mail.subject }),
        },
      ]);
      // The team's page shows the owner the mail went out.
      const listed = TeamMemberList.parse(
        json(await h.call({ method: 'GET', url: `/api/admin/stores/${acme}/team-members`, cookie: owner })),
      ).data;
      expect(listed.find((m) => m.userId === userId)).toMatchObject({
        status: 'invited',
        invitationMail: { sent: true, to: 'ines@acme.test', attempt: 1, nextAttemptAt: null },
      });
      // Nothing but its hash is kept: no event holds the token.
      const { rows } = await sql<{
        n: number;
      }>`select count(*)::int as n from events where data::text like ${`%${token}%`}`.execute(
        h.runtime.ctx.database.db,
      );
      expect(rows[0]!.n).toBe(0);
      expect((await accept(h, token)).statusCode).toBe(200);
      expect((await accept(h, token)).statusCode).toBe(404);
      // The invitation event handled again (a replayed reaction) finds its mail sent: nothing goes twice.
      const account = json<{ data: AccountView[] }>(
        await h.call({ method: 'GET', url: '/api/admin/accounts', cookie: owner }),
      ).data[0]!.id;
      const [invitation] = (await readStream(h.runtime.ctx.database.db, account)).events.filter(
        (e) => e.type === 'TeamMemberInvited' && JSON.stringify(e.data).includes(userId),
      );
      const mailer = testMailer(h.runtime, smtp.port);
      await deliverInvitationMail(h.runtime.ctx, mailer, {
        job: { kind: 'invitation' },
        streamId: invitation!.streamId,
        eventId: invitation!.eventId,
        streamVersion: invitation!.streamVersion,
        correlationId: 'replay',
      });
      mailer.close();
      expect(mailTo(smtp.received, 'ines@acme.test')).toHaveLength(1);
    });

    it('mails a support invitation once, with a link that accepts it; inviting again after a removal mails a new link that replaces the first', async () => {
      const admin = await h.login('admin');
      const invite = () =>
        h.call({
          method: 'POST',
          url: '/api/admin/support-users',
          cookie: admin,
          body: { email: 'sol@orderprotection.test', name: 'Sol Support', role: 'orderprotection_support' },
        });
      const first = await invite();
      expect(first.statusCode, first.body).toBe(201);
      const userId = json<{ member: { userId: string } }>(first).member.userId;
      const firstMail = await eventually(async () => {
        const [found] = mailTo(smtp.received, 'sol@orderprotection.test');
        expect(found).toBeDefined();
        return found!;
      });
      expect(firstMail.subject).toBe('You are invited to the Order Protection support team');
      expect(firstMail.attachments).toEqual([]);
      expect(firstMail.html).toContain('Order Protection');
      expect(
        (await h.call({ method: 'DELETE', url: `/api/admin/support-users/${userId}`, cookie: admin })).statusCode,
      ).toBe(204);
      expect((await invite()).statusCode).toBe(201);
      const secondMail = await eventually(async () => {
        const found = mailTo(smtp.received, 'sol@orderprotection.test');
        expect(found).toHaveLength(2);
        return found[1]!;
      });
      await h.runtime.settle();
      expect(mailTo(smtp.received, 'sol@orderprotection.test')).toHaveLength(2);
      const staff = TeamMemberList.parse(
        json(await h.call({ method: 'GET', url: '/api/admin/support-users', cookie: admin })),
      ).data;
      expect(staff.find((m) => m.userId === userId)).toMatchObject({
        status: 'invited',
        invitationMail: { sent: true, to: 'sol@orderprotection.test' },
      });
      expect((await mailEvents(h, userId)).map((e) => e.type)).toEqual(['InvitationMailSent', 'InvitationMailSent']);
      expect((await accept(h, invitationToken(firstMail)!)).statusCode).toBe(404);
      expect((await accept(h, invitationToken(secondMail)!)).statusCode).toBe(200);
      const signedIn = await h.call({
        method: 'POST',
        url: '/api/auth/login',
        body: { email: 'sol@orderprotection.test', password: 'a-long-password-1' },
      });
      expect(signedIn.statusCode).toBe(200);
    });

    it("mails the owner a new merchant's onboarding invites, so they can sign in to their new store", async () => {
      const admin = await h.login('admin');
      const account = await h.call({
        method: 'POST',
        url: '/api/admin/accounts',
        cookie: admin,
        body: { name: 'Noord Group', slug: 'noord-group' },
      });
      expect(account.statusCode, account.body).toBe(201);
      const store = await h.call({
        method: 'POST',
        url: '/api/admin/stores',
        cookie: admin,
        body: {
          accountId: AccountView.parse(json(account)).id,
          name: 'Noord Linen',
          slug: 'noord-linen',
          currency: 'EUR',
          domain: null,
        },
      });
      expect(store.statusCode, store.body).toBe(201);
      const storeId = StoreOnboardingView.parse(json(store)).storeId;
      await h.invite(admin, storeId, {
        email: 'nora@noord.test',
        name: 'Nora Noord',
        role: 'store_owner',
      });
      const mail = await eventually(async () => {
        const [found] = mailTo(smtp.received, 'nora@noord.test');
        expect(found).toBeDefined();
        return found!;
      });
      expect(mail.subject).toBe("You are invited to Noord Linen's team");
      expect((await accept(h, invitationToken(mail)!, 'noord-pass-1234')).statusCode).toBe(200);
      const nora = await h.call({
        method: 'POST',
        url: '/api/auth/login',
        body: { email: 'nora@noord.test', password: 'noord-pass-1234' },
      });
      expect(nora.statusCode, nora.body).toBe(200);
      const cookie = String(nora.headers['set-cookie']).split(';')[0]!;
      const team = TeamMemberList.parse(
        json(await h.call({ method: 'GET', url: `/api/admin/stores/${storeId}/team-members`, cookie })),
      );
      expect(team.data).toMatchObject([{ email: 'nora@noord.test', status: 'active' }]);
    });
  });

  describe('with a dead SMTP server', () => {
    let h: Harness;
    let gate: Awaited<ReturnType<typeof startGate>>;
    beforeAll(async () => {
      gate = await startGate();
      h = await startHarness({ ...PRODUCTION, SMTP_URL: `smtp://127.0.0.1:${gate.port}` });
    });
    afterAll(async () => {
      await h.stop();
      await gate.stop();
    });

    it('records each failure with its next try, mails once the server is back, and never mails an invitation accepted meanwhile', async () => {
      const owner = await h.login('acmeOwner');
      const acme = await h.storeId('acme');
      const invite = async (email: string, name: string) => {
        const answer = await h.invite(owner, acme, { email, name, role: 'store_user' });
        return json<{ member: { userId: string } }>(answer).member.userId;
      };
      const waiting = await invite('wes@acme.test', 'Wes Waiting');
      const early = await invite('eve@acme.test', 'Eve Early');
      for (const userId of [waiting, early]) {
        await eventually(async () => {
          expect((await mailEvents(h, userId))[0]).toMatchObject({
            type: 'InvitationMailFailed',
            data: { attempt: 1, nextAttemptAt: expect.any(String), error: expect.any(String) },
          });
        });
      }
      // The team's page shows the owner the failure and when it is tried again.
      const listed = TeamMemberList.parse(
        json(await h.call({ method: 'GET', url: `/api/admin/stores/${acme}/team-members`, cookie: owner })),
      ).data;
      expect(listed.find((m) => m.userId === waiting)?.invitationMail).toMatchObject({
        sent: false,
        to: 'wes@acme.test',
        error: expect.any(String),
        nextAttemptAt: expect.any(String),
      });
      // Eve got her link another way (a test's stand-in for her mailbox) and accepted before the server came back.
      expect((await accept(h, await mailedInvitationToken(h.runtime, 'eve@acme.test'))).statusCode).toBe(200);
      const smtp = await startSmtp();
      gate.open(smtp.port);
      try {
        const mail = await eventually(async () => {
          const [found] = mailTo(smtp.received, 'wes@acme.test');
          expect(found).toBeDefined();
          return found!;
        }, 60_000);
        const events = await eventually(async () => {
          const recorded = await mailEvents(h, waiting);
          expect(recorded.at(-1)?.type).toBe('InvitationMailSent');
          return recorded;
        });
        expect(events.filter((e) => e.type === 'InvitationMailSent')).toHaveLength(1);
        expect(events.slice(0, -1).every((e) => e.type === 'InvitationMailFailed')).toBe(true);
        expect((await accept(h, invitationToken(mail)!)).statusCode).toBe(200);
        await h.runtime.settle();
        expect(mailTo(smtp.received, 'eve@acme.test')).toHaveLength(0);
        expect((await mailEvents(h, early)).every((e) => e.type === 'InvitationMailFailed')).toBe(true);
        const { rows } = await sql<{
          n: number;
        }>`select count(*)::int as n from notification_retries where job = 'invitation'`.execute(
          h.runtime.ctx.database.db,
        );
        expect(rows[0]!.n).toBe(0);
      } finally {
        await smtp.stop();
      }
    }, 90_000);
  });
});
