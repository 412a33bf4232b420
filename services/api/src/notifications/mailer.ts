import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Logger } from 'pino';
import { SETTINGS_DEFAULTS, type Store } from '@claims/contracts';
import { eachInOrderPerKey } from '../eventsourcing/inOrderPerKey.js';
import type { InlineImage } from './mailLogo.js';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Where the recipient's reply goes, when not to the sender (MAIL_FROM). */
  replyTo?: string;
  /** Parts the HTML shows by `cid:` (the store's logo). */
  attachments?: InlineImage[];
}

/** Mail to a shopper carries the store's reply-to (its notifications settings) as it is when the mail is written. */
export function withStoreReplyTo(mail: Mail, store: Store): Mail {
  const replyTo = (store.settings.notifications ?? SETTINGS_DEFAULTS.notifications).replyToEmail;
  return replyTo ? { ...mail, replyTo } : mail;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  /** How many mails it sends at once (its connections): what a batch of mail keeps in flight. */
  readonly concurrency: number;
  close(): void;
}

/**
 * Runs `send` for every item: one stream's mail in the order of its events (a claim's), other streams' at the same
 * time over the mailer's connections.
 */
export const mailInStreamOrder = <Item extends { streamId: string }>(
  mailer: Mailer,
  items: readonly Item[],
  send: (item: Item) => Promise<void>,
): Promise<void> => eachInOrderPerKey(items, (item) => item.streamId, mailer.concurrency, send);

export interface MailerConfig {
  smtpUrl: string | undefined;
  from: string;
  dataDir: string;
  /** SMTP connections kept open and used at once. */
  maxConnections?: number;
}

/** Mails written to files at once without SMTP_URL (the disk, not a server, is what they wait on). */
const FILE_CONCURRENCY = 4;

/**
 * Mail through SMTP at `SMTP_URL` over a pool of at most `maxConnections` connections, each kept open and used for
 * mail after mail (a new connection per mail, with its greeting and EHLO, capped mail at a few a second); without one it stays on this machine: each message is written as an
 * `.eml` file under DATA_DIR/mail (open it with any mail program), and the folder is logged once.
 */
export function createMailer(config: MailerConfig, log: Logger): Mailer {
  if (config.smtpUrl) {
    // A dead server fails fast: the notifier records the failure and tries again later, never a request.
    const url = new URL(config.smtpUrl);
    const secure = url.protocol === 'smtps:';
    const maxConnections = config.maxConnections ?? 5;
    const transport = nodemailer.createTransport({
      pool: true,
      maxConnections,
      // A connection is closed and opened again after this many mails (servers limit a session), not after each.
      maxMessages: 1_000,
      host: url.hostname,
      port: Number(url.port || (secure ? 465 : 587)),
      secure,
      ...(url.username
        ? { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } }
        : {}),
      connectionTimeout: 5_000,
      greetingTimeout: 5_000,
      socketTimeout: 10_000,
    });
    return {
      async send(mail) {
        await transport.sendMail({ from: config.from, ...mail });
      },
      concurrency: maxConnections,
      close: () => transport.close(),
    };
  }
  const folder = path.join(config.dataDir, 'mail');
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true });
  log.info({ folder }, `no SMTP_URL: mail is kept in ${folder} (open the .eml files with any mail program)`);
  return {
    async send(mail) {
      const { message } = await transport.sendMail({ from: config.from, ...mail });
      const file = path.join(
        folder,
        `${new Date().toISOString().replace(/[:.]/g, '-')}-${mail.subject.replace(/[^\w-]+/g, '_').slice(0, 60)}.eml`,
      );
      // The folder is made when missing (first mail, or cleared meanwhile), not before every mail.
      await fs.writeFile(file, message as Buffer).catch(async (error: unknown) => {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        await fs.mkdir(folder, { recursive: true });
        await fs.writeFile(file, message as Buffer);
      });
    },
    concurrency: FILE_CONCURRENCY,
    close: () => transport.close(),
  };
}
