import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';
import { claimNotificationsStreamOf } from '@claims/contracts';
import { readStream } from '@claims/event-store';
import { eventually } from '../../../test/support/testDatabase.js';
import { json, oneItemClaim, startHarness, type Harness } from './support/backofficeHarness.js';

/** A real SMTP server in this process, keeping what it receives; it can be stopped to play a dead one. */
async function startSmtp(port = 0): Promise<{ port: number; received: ParsedMail[]; stop: () => Promise<void> }> {
  const received: ParsedMail[] = [];
  const server = new SMTPServer({
    authOptional: true, disabledCommands: ['STARTTLS'], logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream).then((mail) => { received.push(mail); callback(); }, callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.server.address() as net.AddressInfo;
  return { port: address.port, received, stop: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** A door in front of an SMTP server: while shut, every connection is dropped at once (a dead server). */
async function startGate(): Promise<{ port: number; open: (target: number) => void; stop: () => Promise<void> }> {
  let target: number | null = null;
  const server = net.createServer((socket) => {
    if (target === null) return socket.destroy();
    const upstream = net.connect(target, '127.0.0.1');
    socket.pipe(upstream).pipe(socket);
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    open: (port) => { target = port; },
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const viewLink = (mail: ParsedMail) => /\/view\/([A-Za-z0-9_-]{43})/.exec(mail.text ?? '')?.[1];

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
      // The mailed link opens the claim, like the one shown after filing.
      const token = viewLink(filedMail)!;
      expect((await h.call({ method: 'GET', url: `/api/claims/${token}` })).statusCode).toBe(200);
      expect((await h.call({ method: 'GET', url: `/api/claims/${token.slice(0, 30)}${'A'.repeat(13)}` })).statusCode).toBe(404);

      const owner = await h.login('acmeOwner');
      await h.call({ method: 'POST', url: `/api/admin/claims/${filed.claimId}/messages`, cookie: owner, body: { messageContent: 'We are sending a new one.' } });
      // The shopper's own message is not mailed back to them.
      await h.call({ method: 'POST', url: `/api/claims/${filed.token}/messages`, body: { messageContent: 'Thanks!' } });
      const resolved = await h.call({ method: 'POST', url: `/api/admin/claims/${filed.claimId}/resolve`, cookie: owner, body: { resolutionType: 'RESHIP' } });
      expect(resolved.statusCode, resolved.body).toBe(200);
      const later = await eventually(async () => {
        const reply = smtp.received.find((m) => m.subject?.includes(`wrote about your claim #${filed.claimNumber}`));
        const decision = smtp.received.find((m) => m.subject === `Your claim #${filed.claimNumber} has a decision`);
        expect(reply && decision).toBeTruthy();
        return { reply: reply!, decision: decision! };
      });
      expect(later.reply.text).toContain('We are sending a new one.');
      expect(later.decision.text).toMatch(/Reship/);
      expect(smtp.received.filter((m) => m.text?.includes('Thanks!'))).toHaveLength(0);
      // Every notification is an event of the claim's notifications stream, visible to the back-office.
      const recorded = await readStream(h.runtime.ctx.database.db, claimNotificationsStreamOf(filed.claimId));
      expect(recorded.events.map((e) => [e.type, (e.data as { kind: string }).kind])).toEqual([
        ['ClaimNotificationSent', 'claim_filed'], ['ClaimNotificationSent', 'store_reply'], ['ClaimNotificationSent', 'claim_resolved']]);
      // Sending mail moved no version the agents work at: the claim is at filed + message + message + resolution.
      expect(json<{ version: number }>(await h.call({ method: 'GET', url: `/api/admin/claims/${filed.claimId}`, cookie: owner })).version).toBe(4);
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
        expect(events[0]).toMatchObject({ type: 'ClaimNotificationFailed', data: { kind: 'claim_filed', attempt: 1 } });
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
          expect(recorded.at(-1)).toMatchObject({ type: 'ClaimNotificationSent', data: { kind: 'claim_filed' } });
          return recorded;
        });
        expect(events.filter((e) => e.type === 'ClaimNotificationSent')).toHaveLength(1);
      } finally {
        await smtp.stop();
      }
    }, 90_000);
  });
});
