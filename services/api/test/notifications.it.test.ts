import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CLAIM_LINK_RECOVERY_ANSWER,
  claimNotificationsStreamOf,
  CustomerClaimView,
  DomainEvent,
  NotificationSettingsList,
  orderNotificationsStreamOf,
  StoreNotificationSettings,
  TimelineResponse,
} from '@claims/contracts';
import { sql } from 'kysely';
import { readStream } from '@claims/event-store';
import { eventually } from '../../../test/support/testDatabase.js';
import { deliverClaimMail } from '../src/notifications/deliverClaimMail.js';
import { DEMO_USERS, json, oneItemClaim, startHarness, type Harness } from './support/backofficeHarness.js';
import { startSmtp, startGate } from '../../../test/support/smtpServers.js';
import { testMailer } from './support/testMailer.js';

const viewLink = (mail: ParsedMail) => /\/view\/([A-Za-z0-9_-]{43})/.exec(mail.text ?? '')?.[1];
/** The shopper's mail among a claim's notifications (team members' carry a memberId). */
const shoppers = (events: ReadonlyArray<{ type: string; data: unknown }>) =>
  events
    .map((e) => DomainEvent.parse({ type: e.type, data: e.data }))
    .flatMap((e) =>
      (e.type === 'ClaimNotificationSent' || e.type === 'ClaimNotificationFailed') && !e.data.memberId ? [e] : [],
    );
const recipients = (mail: ParsedMail) => (mail.to && 'text' in mail.to ? mail.to.text : '');
const mailTo = (received: ParsedMail[], email: string, subject: string | RegExp) =>
  received.filter(
    (m) =>
      recipients(m).includes(email) &&
      (typeof subject === 'string' ? m.subject === subject : subject.test(m.subject ?? '')),
  );

describe('mail to the shopper, after the request and never inside it (contract §Notifications)', () => {
  describe('with a working SMTP server', () => {
    let h: Harness;
    let smtp: Awaited<ReturnType<typeof startSmtp>>;
    beforeAll(async () => {
      smtp = await startSmtp();
      h = await startHarness({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, PUBLIC_URL: 'https://claims.example.test' });
    });
    afterAll(async () => {
      await h.stop();
      await smtp.stop();
    });

    it('mails the claim link on filing, and again when the store writes and when it decides', async () => {
      const filed = await h.fileClaim('acme-5008', oneItemClaim('hugo@example.com', 'f-1008-1', 'li-12'));
      const filedMail = await eventually(async () => {
        const mail = smtp.received.find((m) => m.subject === `We received your claim #${filed.claimNumber}`);
        expect(mail).toBeDefined();
        return mail!;
      });
      expect(filedMail.to && 'text' in filedMail.to ? filedMail.to.text : '').toContain('hugo@example.com');
      expect(filedMail.text).toContain('https://claims.example.test/view/');
      expect(filedMail.html).toContain('View your claim');
      // In the store's branding (its colour, its SVG logo drawn to a PNG part of the mail itself, which no mail client
      // must fetch from a server answering `Cross-Origin-Resource-Policy: same-origin`), with a plain-text part beside it.
      expect(filedMail.html).toContain('background-color:#1F4E79');
      const [logo] = filedMail.attachments;
      expect(logo).toMatchObject({ contentType: 'image/png', related: true });
      expect(filedMail.html).toContain(`src="cid:${logo!.cid}"`);
      expect(logo!.content.subarray(1, 4).toString('latin1')).toBe('PNG');
      // Drawn at twice the width the mail shows it (120 px), sharp on dense screens.
      expect(logo!.content.readUInt32BE(16)).toBe(240);
      expect(filedMail.text).toContain('View your claim: https://claims.example.test/view/');
      // The mailed link opens the claim, like the one shown after filing.
      const token = viewLink(filedMail)!;
      expect((await h.call({ method: 'GET', url: `/api/claims/${token}` })).statusCode).toBe(200);
      expect(
        (await h.call({ method: 'GET', url: `/api/claims/${token.slice(0, 30)}${'A'.repeat(13)}` })).statusCode,
      ).toBe(404);

      const owner = await h.login('acmeOwner');
      await h.call({
        method: 'POST',
        url: `/api/admin/claims/${filed.claimId}/messages`,
        cookie: owner,
        body: { messageContent: 'We are sending a new one.' },
      });
      // The shopper's own message is not mailed back to them.
      await h.call({ method: 'POST', url: `/api/claims/${filed.token}/messages`, body: { messageContent: 'Thanks!' } });
      // Of the status changes, only one that needs the shopper is mailed to them.
      for (const status of ['OPEN', 'WAITING_FOR_CUSTOMER']) {
        const moved = await h.call({
          method: 'POST',
          url: `/api/admin/claims/${filed.claimId}/status`,
          cookie: owner,
          body: { status },
        });
        expect(moved.statusCode, moved.body).toBe(200);
      }
      await h.resolveClaim(owner, filed.claimId, { resolutionType: 'REFUND' });
      const later = await eventually(async () => {
        const reply = smtp.received.find((m) => m.subject?.includes(`wrote about your claim #${filed.claimNumber}`));
        const decision = smtp.received.find(
          (m) => m.subject === `Your claim #${filed.claimNumber} has a decision: approved`,
        );
        const waiting = smtp.received.find(
          (m) => m.subject === `Acme Outfitters needs your reply on claim #${filed.claimNumber}`,
        );
        expect(reply && decision && waiting).toBeTruthy();
        return { reply: reply!, decision: decision!, waiting: waiting! };
      });
      expect(viewLink(later.waiting)).toBeDefined();
      expect(later.reply.text).toContain('We are sending a new one.');
      // What was decided, how much and when.
      expect(later.decision.text).toMatch(/decided on your claim on \w+ \d{1,2}, \d{4}:/);
      expect(later.decision.text).toMatch(/- Vacuum Flask 1L × 1: Refunded €\d+\.\d{2}/);
      expect(
        smtp.received.filter((m) => m.text?.includes('Thanks!') && recipients(m).includes('hugo@example.com')),
      ).toHaveLength(0);
      // Every notification is an event of the claim's notifications stream, visible to the back-office.
      // A mail arrives before the reaction that sent it records it: the reactions finish first.
      await h.runtime.settle();
      const recorded = await readStream(h.runtime.ctx.database.db, claimNotificationsStreamOf(filed.claimId));
      expect(shoppers(recorded.events).map((e) => [e.type, e.data.kind, e.data.to])).toEqual([
        ['ClaimNotificationSent', 'claim_filed', 'hugo@example.com'],
        ['ClaimNotificationSent', 'store_reply', 'hugo@example.com'],
        ['ClaimNotificationSent', 'status_changed', 'hugo@example.com'],
        ['ClaimNotificationSent', 'claim_resolved', 'hugo@example.com'],
      ]);
      // Sending mail moved no version the agents work at: the claim is at filed + two messages + two moves + resolution.
      expect(
        json<{ version: number }>(
          await h.call({ method: 'GET', url: `/api/admin/claims/${filed.claimId}`, cookie: owner }),
        ).version,
      ).toBe(6);
      // The shopper's view lists the statuses the claim went through, oldest first.
      const view = CustomerClaimView.parse(json(await h.call({ method: 'GET', url: `/api/claims/${token}` })));
      expect(view.statusHistory.map((s) => s.statusLabel)).toEqual(['New', 'Open', 'Waiting for Customer', 'Resolved']);
    });

    it('mails the decision once the claim as a whole is decided, each item with the amounts the claim page shows', async () => {
      const filed = await h.fileClaim('acme-5010', {
        email: 'jon@example.com',
        fulfillmentIssues: [
          {
            sourceFulfillmentId: 'f-1010-2',
            issues: ['li-22', 'li-23'].map((sourceItemId) => ({
              sourceItemId,
              claimType: 'DAMAGED' as const,
              quantity: sourceItemId === 'li-22' ? 2 : 1,
              details: 'Torn.',
              images: [],
            })),
          },
        ],
        resolution: { desiredMethod: 'STORE_CREDIT', customerSignature: 'Jon Park', updatedShippingAddress: null },
      });
      const owner = await h.login('acmeOwner');
      const { items } = json<{ items: Array<{ id: string; name: string }> }>(
        await h.call({ method: 'GET', url: `/api/admin/claims/${filed.claimId}`, cookie: owner }),
      );
      const [chalk, harness] = ['Chalk Bag', 'Harness'].map((name) => items.find((i) => i.name === name)!.id);
      const decide = async (body: object) => {
        await h.resolveClaim(owner, filed.claimId, body);
      };
      const decisionMails = () =>
        mailTo(smtp.received, 'jon@example.com', `Your claim #${filed.claimNumber} has a decision: approved`);
      const mailed = async () =>
        shoppers((await readStream(h.runtime.ctx.database.db, claimNotificationsStreamOf(filed.claimId))).events).map(
          (e) => e.data.kind,
        );

      // One item of two decided: the claim is not decided yet, so no decision mail.
      await decide({ resolutionType: 'STORE_CREDIT', items: [{ claimItemId: chalk }] });
      await h.runtime.settle();
      expect(decisionMails()).toHaveLength(0);
      expect(await mailed()).toEqual(['claim_filed']);

      await decide({ resolutionType: 'REFUND', items: [{ claimItemId: harness }] });
      const decision = await eventually(async () => {
        const [found] = decisionMails();
        expect(found).toBeDefined();
        return found!;
      });
      await h.runtime.settle();
      expect(decisionMails()).toHaveLength(1);
      expect(await mailed()).toEqual(['claim_filed', 'claim_resolved']);
      // The amounts of the shopper's claim page: the credit with the store's 10% bonus, the refund, in both parts of the mail.
      const view = CustomerClaimView.parse(json(await h.call({ method: 'GET', url: `/api/claims/${filed.token}` })));
      expect(view.storeCredits).toEqual([expect.objectContaining({ credit: 47.52, bonus: 4.75, total: 52.27 })]);
      expect(view.resolutions.find((r) => r.relatedClaimItemId === harness)?.paidValue).toBe(125.28);
      for (const part of [decision.text, decision.html]) {
        expect(part).toContain('Chalk Bag × 2: Store credit $52.27 ($47.52 plus a $4.75 bonus)');
        expect(part).toContain('Harness × 1: Refunded $125.28');
      }
    });

    it("has the shopper's reply go to the store's reply-to address once the store sets one", async () => {
      const owner = await h.login('acmeOwner');
      const acme = json<{ id: string }>(await h.call({ method: 'GET', url: '/api/stores/acme' })).id;
      const setReplyTo = (replyToEmail: string | null) =>
        h.call({
          method: 'PUT',
          url: `/api/admin/stores/${acme}/settings/notifications`,
          cookie: owner,
          body: { value: { replyToEmail } },
        });
      expect((await setReplyTo('care@acme.test')).statusCode).toBe(200);
      // Hugo (whose claim the first test filed) asks his claim links, then the store writes to him: both mails answer to the store.
      expect(
        (await h.call({ method: 'POST', url: '/api/claim-links', body: { order: '1008', email: 'hugo@example.com' } }))
          .statusCode,
      ).toBe(202);
      const links = await eventually(async () => {
        const [found] = mailTo(smtp.received, 'hugo@example.com', 'Your claim links for order 1008');
        expect(found).toBeDefined();
        return found!;
      });
      expect(links.replyTo?.text).toBe('care@acme.test');
      const claimId = json<{ id: string }>(await h.call({ method: 'GET', url: `/api/claims/${viewLink(links)}` })).id;
      await h.call({
        method: 'POST',
        url: `/api/admin/claims/${claimId}/messages`,
        cookie: owner,
        body: { messageContent: 'Reply here if anything is missing.' },
      });
      const reply = await eventually(async () => {
        const found = smtp.received.find((m) => m.text?.includes('Reply here if anything is missing.'));
        expect(found).toBeDefined();
        return found!;
      });
      expect(reply.replyTo?.text).toBe('care@acme.test');
      expect((await setReplyTo(null)).statusCode).toBe(200);
    });

    it("mails each team member new claims and customer replies as they chose, and shows the mail in the claim's timeline", async () => {
      const owner = await h.login('acmeOwner');
      const agent = await h.login('acmeAgent');
      const acme = await h.storeId('acme');
      // Defaults: the account owner gets both, the support agent neither.
      const before = NotificationSettingsList.parse(
        json(await h.call({ method: 'GET', url: '/api/admin/notification-preferences', cookie: agent })),
      );
      expect(before.data).toEqual([
        {
          store: expect.objectContaining({ id: acme }),
          settings: [
            { kind: 'new_claim', enabled: false, chosen: false },
            { kind: 'customer_reply', enabled: false, chosen: false },
          ],
        },
      ]);
      const setTo = async (
        cookie: string,
        settings: Array<{ kind: 'new_claim' | 'customer_reply'; enabled: boolean }>,
      ) => {
        const response = await h.call({
          method: 'PUT',
          url: `/api/admin/stores/${acme}/notification-preferences`,
          cookie,
          body: { settings },
        });
        expect(response.statusCode, response.body).toBe(200);
        return StoreNotificationSettings.parse(json(response));
      };
      expect((await setTo(agent, [{ kind: 'new_claim', enabled: true }])).settings[0]).toEqual({
        kind: 'new_claim',
        enabled: true,
        chosen: true,
      });
      await setTo(owner, [{ kind: 'new_claim', enabled: false }]);
      // Nobody chooses at a store they do not belong to.
      const kumo = await h.storeId('kumo');
      expect(
        (
          await h.call({
            method: 'PUT',
            url: `/api/admin/stores/${kumo}/notification-preferences`,
            cookie: agent,
            body: { settings: [{ kind: 'new_claim', enabled: true }] },
          })
        ).statusCode,
      ).toBe(404);

      const filed = await h.fileClaim('acme-5010', oneItemClaim('jon@example.com', 'f-1010-1', 'li-20'));
      await h.call({
        method: 'POST',
        url: `/api/claims/${filed.token}/messages`,
        body: { messageContent: 'Any news on the lamp?' },
      });
      await h.runtime.settle();
      const newClaim = `New claim #${filed.claimNumber} at Acme Outfitters (order 1010)`;
      const reply = `Jon Park replied on claim #${filed.claimNumber}`;
      const agentMail = await eventually(async () => {
        const [found] = mailTo(smtp.received, DEMO_USERS.acmeAgent, newClaim);
        expect(found).toBeDefined();
        return found!;
      });
      expect(agentMail.text).toContain(`https://claims.example.test/admin/claims/view/${filed.claimId}`);
      expect(agentMail.text).toContain('https://claims.example.test/admin/profile');
      const ownerReply = await eventually(async () => {
        const [found] = mailTo(smtp.received, DEMO_USERS.acmeOwner, reply);
        expect(found).toBeDefined();
        return found!;
      });
      expect(ownerReply.text).toContain('Any news on the lamp?');
      // With the preference off, none: the owner chose no new-claim mail; the agent's replies are off by default.
      await h.runtime.settle();
      expect(mailTo(smtp.received, DEMO_USERS.acmeOwner, newClaim)).toHaveLength(0);
      expect(mailTo(smtp.received, DEMO_USERS.acmeAgent, reply)).toHaveLength(0);
      expect(mailTo(smtp.received, DEMO_USERS.acmeViewer, /./)).toHaveLength(0);
      // Team mail began when its reaction first ran: the demo's claim on order 1007, seeded before, mailed its shopper only.
      expect(mailTo(smtp.received, 'gia@example.com', /^We received your claim/)).toHaveLength(1);
      expect(mailTo(smtp.received, DEMO_USERS.acmeOwner, /\(order 1007\)$/)).toHaveLength(0);

      // Each mail is a record of the claim's notifications stream, and a line of its timeline; the claim's version is the agents' alone.
      const timeline = await eventually(async () => {
        const lines = TimelineResponse.parse(
          json(await h.call({ method: 'GET', url: `/api/admin/claims/${filed.claimId}/timeline`, cookie: owner })),
        ).data;
        expect(lines.filter((l) => l.source === 'notifications')).toHaveLength(3);
        return lines;
      });
      expect(timeline.map((l) => [l.source, l.eventType])).toEqual(
        expect.arrayContaining([
          ['claim', 'ClaimFiled'],
          ['claim', 'ClaimMessageSent'],
        ]),
      );
      expect(timeline.filter((l) => l.source === 'notifications').map((l) => l.summary)).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            kind: 'claim_filed',
            recipient: 'customer',
            to: 'jon@example.com',
            subject: `We received your claim #${filed.claimNumber}`,
            sent: true,
          }),
          expect.objectContaining({
            kind: 'new_claim',
            recipient: 'team',
            to: DEMO_USERS.acmeAgent,
            subject: newClaim,
            sent: true,
          }),
          expect.objectContaining({
            kind: 'customer_reply',
            recipient: 'team',
            to: DEMO_USERS.acmeOwner,
            subject: reply,
            sent: true,
          }),
        ]),
      );
      const positions = timeline.map((l) => l.globalPosition);
      expect(positions).toEqual([...positions].sort((a, b) => a - b));
      expect(
        json<{ version: number }>(
          await h.call({ method: 'GET', url: `/api/admin/claims/${filed.claimId}`, cookie: owner }),
        ).version,
      ).toBe(2);
    });

    it("mails a shopper who asks the links to their order's claims, and answers the same when nothing matches", async () => {
      const filed = await h.fileClaim('acme-5001', oneItemClaim('ava@example.com', 'f-1001-1', 'li-1'));
      const ask = (order: string, email: string) =>
        h.call({ method: 'POST', url: '/api/claim-links', body: { order, email } });
      const matched = await ask('#1001', ' AVA@example.com ');
      const unmatched = await ask('1001', 'mallory@example.com');
      const unknown = await ask('99999', 'ava@example.com');
      for (const answer of [matched, unmatched, unknown]) {
        expect(answer.statusCode).toBe(202);
        expect(answer.body).toBe(matched.body);
      }
      expect(json(matched)).toEqual({ message: CLAIM_LINK_RECOVERY_ANSWER });
      expect(matched.body).not.toContain('/view/');

      const mail = await eventually(async () => {
        const [found] = mailTo(smtp.received, 'ava@example.com', 'Your claim links for order 1001');
        expect(found).toBeDefined();
        return found!;
      });
      const tokens = [...(mail.text ?? '').matchAll(/https:\/\/claims\.example\.test\/view\/([A-Za-z0-9_-]{43})/g)].map(
        (m) => m[1]!,
      );
      expect(tokens).toHaveLength(1);
      expect(mail.text).toContain(`Claim #${filed.claimNumber} (New)`);
      const opened = await h.call({ method: 'GET', url: `/api/claims/${tokens[0]}` });
      expect(opened.statusCode).toBe(200);
      expect(json<{ claimNumber: string }>(opened).claimNumber).toBe(filed.claimNumber);
      // Nothing went to the address that did not match, and the request and its mail are events of the order's own stream.
      await h.runtime.settle();
      expect(mailTo(smtp.received, 'mallory@example.com', /./)).toHaveLength(0);
      const order = await h.call({ method: 'GET', url: '/api/order-lookup?order=1001&email=ava@example.com' });
      const { events } = await readStream(
        h.runtime.ctx.database.db,
        orderNotificationsStreamOf(json<{ systemOrderId: string }>(order).systemOrderId),
      );
      expect(events.map((e) => e.type)).toEqual(['ClaimLinksRequested', 'ClaimLinksMailSent']);
      expect(events[1]!.data).toMatchObject({ claimIds: [filed.claimId], to: 'ava@example.com', attempt: 1 });
    });
  });

  describe('with the reactions alone in the process (no projector whose catching up would hide theirs)', () => {
    let r: Harness;
    // Mail kept as files (no SMTP_URL): what is tested is when its record is written, not where it goes.
    beforeAll(async () => {
      r = await startHarness({ WORKERS: 'reactions' });
    });
    afterAll(() => r.stop());

    it('has settle wait for the mail of a filing that a transaction open elsewhere hides at first, and record it once that ends', async () => {
      // A transaction holding an id keeps the cluster's read horizon (readAll's) before the filing's events.
      let release!: () => void;
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      let holding!: () => void;
      const held = new Promise<void>((resolve) => {
        holding = resolve;
      });
      const open = r.runtime.ctx.database.db.transaction().execute(async (trx) => {
        await sql`select pg_current_xact_id()`.execute(trx);
        holding();
        await released;
      });
      await held;
      let settled = false;
      // The transaction ends whatever happens here: left open, it would hold the harness's stop.
      const { filed, settling, settledWhileHeld } = await r
        .fileClaim('acme-5001', oneItemClaim('ava@example.com', 'f-1001-1', 'li-2'))
        .then(async (claim) => {
          const settlingNow = r.runtime.settle().then(() => {
            settled = true;
          });
          // Whatever the wait, the mail cannot be recorded while the horizon is held: settle has not ended.
          await new Promise((resolve) => setTimeout(resolve, 1000));
          return { filed: claim, settling: settlingNow, settledWhileHeld: settled };
        })
        .finally(async () => {
          release();
          await open;
        });
      expect(settledWhileHeld).toBe(false);
      await settling;
      const recorded = await readStream(r.runtime.ctx.database.db, claimNotificationsStreamOf(filed.claimId));
      expect(shoppers(recorded.events).map((e) => [e.type, e.data.kind])).toEqual([
        ['ClaimNotificationSent', 'claim_filed'],
      ]);
    });
  });

  describe('with a dead SMTP server', () => {
    let h: Harness;
    let gate: Awaited<ReturnType<typeof startGate>>;
    beforeAll(async () => {
      gate = await startGate();
      h = await startHarness({ SMTP_URL: `smtp://127.0.0.1:${gate.port}` });
    });
    afterAll(async () => {
      await h.stop();
      await gate.stop();
    });

    it('files at once, records the failure, and delivers once the server is back', async () => {
      const filed = await h.fileClaim('acme-5008', oneItemClaim('hugo@example.com', 'f-1008-1', 'li-12'));
      const stream = claimNotificationsStreamOf(filed.claimId);
      await eventually(async () => {
        const { events } = await readStream(h.runtime.ctx.database.db, stream);
        expect(shoppers(events)[0]).toMatchObject({
          type: 'ClaimNotificationFailed',
          data: { kind: 'claim_filed', attempt: 1, nextAttemptAt: expect.any(String) },
        });
      });
      const smtp = await startSmtp();
      gate.open(smtp.port);
      try {
        const mail = await eventually(async () => {
          const found = smtp.received.find((m) => m.subject === `We received your claim #${filed.claimNumber}`);
          expect(found).toBeDefined();
          return found!;
        }, 60_000);
        expect(viewLink(mail)).toBeDefined();
        // The server has the mail before the sender hears back and records it: wait for the record.
        const events = await eventually(async () => {
          const { events: recorded } = await readStream(h.runtime.ctx.database.db, stream);
          expect(shoppers(recorded).at(-1)).toMatchObject({
            type: 'ClaimNotificationSent',
            data: { kind: 'claim_filed' },
          });
          return shoppers(recorded);
        });
        expect(events.filter((e) => e.type === 'ClaimNotificationSent')).toHaveLength(1);
        // The filing event handled again (a replayed reaction, a stale retry) finds its notification sent by its event id: nothing goes twice.
        const [filing] = (await readStream(h.runtime.ctx.database.db, filed.claimId)).events;
        const mailer = testMailer(h.runtime, smtp.port);
        await deliverClaimMail(h.runtime.ctx, mailer, {
          streamId: filing!.streamId,
          eventId: filing!.eventId,
          streamVersion: filing!.streamVersion,
          correlationId: filing!.metadata.correlationId,
          job: { kind: 'shopper' },
        });
        mailer.close();
        expect(smtp.received.filter((m) => m.subject === `We received your claim #${filed.claimNumber}`)).toHaveLength(
          1,
        );
        // Each failure and the retry that went out are lines of the claim's timeline.
        expect(events[0]!.type).toBe('ClaimNotificationFailed');
        const owner = await h.login('acmeOwner');
        await eventually(async () => {
          const lines = TimelineResponse.parse(
            json(await h.call({ method: 'GET', url: `/api/admin/claims/${filed.claimId}/timeline`, cookie: owner })),
          ).data;
          expect(
            lines
              .filter((l) => l.source === 'notifications' && l.summary['recipient'] === 'customer')
              .map((l) => [l.summary['sent'], l.summary['attempt']]),
          ).toEqual(events.map((e) => [e.type === 'ClaimNotificationSent', e.data.attempt]));
        });
        // The owner's new-claim mail failed and was retried on its own schedule, like the shopper's.
        const ownerMail = await eventually(async () => {
          const [found] = mailTo(
            smtp.received,
            DEMO_USERS.acmeOwner,
            `New claim #${filed.claimNumber} at Acme Outfitters (order 1008)`,
          );
          expect(found).toBeDefined();
          return found!;
        }, 60_000);
        expect(ownerMail.text).toContain(`/admin/claims/view/${filed.claimId}`);
      } finally {
        await smtp.stop();
      }
    }, 90_000);
  });
});
