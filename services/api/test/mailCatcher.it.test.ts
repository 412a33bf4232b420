import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import nodemailer from 'nodemailer';
import pino from 'pino';
import { createMailer } from '../src/notifications/mailer.js';
import { startMailCatcher, type MailCatcher } from '../src/ops/mailCatcher.js';

describe('the development mail catcher (make dev without SMTP_URL)', () => {
  let catcher: MailCatcher;
  beforeAll(async () => {
    catcher = await startMailCatcher({ smtpPort: 0, viewerPort: 0 });
  });
  afterAll(async () => {
    await catcher.stop();
  });

  it("keeps what it is sent and shows it on its page, the mail's own markup escaped and its HTML sandboxed", async () => {
    const url = new URL(catcher.smtpUrl);
    const transport = nodemailer.createTransport({
      host: url.hostname,
      port: Number(url.port),
      secure: false,
      ignoreTLS: true,
    });
    await transport.sendMail({
      from: 'claims@orderprotection.test',
      to: 'ava@example.com',
      subject: 'We received your claim <script>alert(1)</script>',
      text: 'View your claim: http://127.0.0.1:3000/view/abc',
      html: '<p>Hello <script>alert(2)</script></p>',
    });
    transport.close();
    const list = await (await fetch(catcher.viewerUrl)).text();
    expect(list).toContain('ava@example.com');
    expect(list).toContain('We received your claim &lt;script&gt;');
    expect(list).not.toContain('<script>');
    const [message] = catcher.messages();
    const shown = await fetch(new URL(`/messages/${message!.id}`, catcher.viewerUrl));
    expect(shown.headers.get('content-security-policy')).toContain("default-src 'none'");
    const body = await shown.text();
    expect(body).toContain('View your claim: http://127.0.0.1:3000/view/abc');
    expect(body).toMatch(/<iframe title="The HTML part" sandbox srcdoc="&lt;p&gt;Hello &lt;script&gt;/);
    expect(await (await fetch(new URL(`/messages/${message!.id}.eml`, catcher.viewerUrl))).text()).toContain(
      'Subject: We received your claim',
    );
  });
});

describe('mail without SMTP_URL', () => {
  it('is kept as .eml files under DATA_DIR/mail, the folder made again when it was cleared meanwhile', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mail-folder-'));
    const mailer = createMailer(
      { smtpUrl: undefined, from: 'claims@orderprotection.test', dataDir },
      pino({ level: 'silent' }),
    );
    const folder = path.join(dataDir, 'mail');
    const mail = (subject: string) => ({
      to: 'ava@example.com',
      subject,
      text: 'View your claim',
      html: '<p>View your claim</p>',
    });
    try {
      await mailer.send(mail('First'));
      expect(fs.readdirSync(folder)).toEqual([expect.stringMatching(/-First\.eml$/)]);
      fs.rmSync(folder, { recursive: true });
      await mailer.send(mail('Second'));
      const [file] = fs.readdirSync(folder);
      expect(file).toMatch(/-Second\.eml$/);
      expect(fs.readFileSync(path.join(folder, file!), 'utf8')).toContain('Subject: Second');
    } finally {
      mailer.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
