import http from 'node:http';
import type net from 'node:net';
import { randomUUID } from 'node:crypto';
import { SMTPServer } from 'smtp-server';
import { simpleParser } from 'mailparser';

/** A message as the catcher keeps it: what a person reading it needs, and the raw source. */
export interface CaughtMail {
  id: string;
  receivedAt: string;
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  raw: Buffer;
}

export interface MailCatcher {
  smtpUrl: string;
  viewerUrl: string;
  messages(): readonly CaughtMail[];
  stop(): Promise<void>;
}

/** The newest this many are kept (a development server's inbox, not an archive). */
const KEEP = 500;

const escapeHtml = (value: string) =>
  value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');

const page = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)} · Mail catcher</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem;color:#111827}table{border-collapse:collapse;width:100%}
th,td{text-align:left;padding:.4rem .6rem;border-bottom:1px solid #e5e7eb}pre{white-space:pre-wrap;background:#f6f7f9;padding:1rem}
iframe{width:100%;height:40rem;border:1px solid #e5e7eb}a{color:#1d4ed8}</style></head>
<body><main>${body}</main></body></html>`;

function listPage(messages: readonly CaughtMail[]): string {
  const rows = messages
    .map(
      (m) =>
        `<tr><td><time datetime="${m.receivedAt}">${escapeHtml(m.receivedAt)}</time></td><td>${escapeHtml(m.to)}</td>` +
        `<td><a href="/messages/${m.id}">${escapeHtml(m.subject || '(no subject)')}</a></td></tr>`,
    )
    .join('');
  return page(
    'Inbox',
    `<h1>Mail sent by the development server</h1>
<p>${messages.length === 0 ? 'Nothing yet: file a claim in the portal and reload.' : `${messages.length} messages, newest first.`}</p>
<table><caption hidden>Messages</caption><thead><tr><th scope="col">Received</th><th scope="col">To</th><th scope="col">Subject</th></tr></thead>
<tbody>${rows}</tbody></table>`,
  );
}

function messagePage(m: CaughtMail): string {
  // The HTML part in a sandboxed frame: its scripts never run, and it cannot reach this page.
  const html =
    m.html === null
      ? ''
      : `<h2>HTML</h2><iframe title="The HTML part" sandbox srcdoc="${escapeHtml(m.html)}"></iframe>`;
  return page(
    m.subject,
    `<p><a href="/">All messages</a> · <a href="/messages/${m.id}.eml">Source (.eml)</a></p>
<h1>${escapeHtml(m.subject || '(no subject)')}</h1>
<dl><dt>From</dt><dd>${escapeHtml(m.from)}</dd><dt>To</dt><dd>${escapeHtml(m.to)}</dd><dt>Received</dt><dd>${escapeHtml(m.receivedAt)}</dd></dl>
<h2>Text</h2><pre>${escapeHtml(m.text)}</pre>${html}`,
  );
}

async function listen(
  server: {
    listen(port: number, host: string, cb: () => void): unknown;
    once(event: 'error', cb: (error: Error) => void): unknown;
  },
  port: number,
  host: string,
): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
}

/** Listens on `port`, or on any free port when it is taken (another development server's catcher). */
async function listenOrAny(server: Parameters<typeof listen>[0], port: number, host: string): Promise<void> {
  try {
    await listen(server, port, host);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    await listen(server, 0, host);
  }
}

/**
 * A local mail catcher for `make dev` without SMTP_URL: an SMTP server (smtp-server) that keeps what it
 * receives in memory and a page listing it, both on the loopback address only. No mail leaves the machine.
 */
export async function startMailCatcher(
  options: { host?: string; smtpPort?: number; viewerPort?: number } = {},
): Promise<MailCatcher> {
  const host = options.host ?? '127.0.0.1';
  const kept: CaughtMail[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    banner: 'claims development mail catcher',
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        simpleParser(raw).then((mail) => {
          const to =
            mail.to === undefined ? '' : (Array.isArray(mail.to) ? mail.to : [mail.to]).map((a) => a.text).join(', ');
          kept.unshift({
            id: randomUUID(),
            receivedAt: new Date().toISOString(),
            from: mail.from?.text ?? '',
            to,
            subject: mail.subject ?? '',
            text: mail.text ?? '',
            html: typeof mail.html === 'string' ? mail.html : null,
            raw,
          });
          kept.splice(KEEP);
          callback();
        }, callback);
      });
    },
  });
  const viewer = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://catcher');
    const match = /^\/messages\/([0-9a-f-]{36})(\.eml)?$/.exec(url.pathname);
    const message = match ? kept.find((m) => m.id === match[1]) : undefined;
    const send = (status: number, type: string, body: string | Buffer) => {
      response.writeHead(status, {
        'content-type': type,
        'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src * data:; frame-src 'self'",
      });
      response.end(body);
    };
    if (request.method !== 'GET') return send(405, 'text/plain; charset=utf-8', 'Only GET.');
    if (url.pathname === '/') return send(200, 'text/html; charset=utf-8', listPage(kept));
    if (message && match?.[2]) return send(200, 'message/rfc822', message.raw);
    if (message) return send(200, 'text/html; charset=utf-8', messagePage(message));
    return send(404, 'text/plain; charset=utf-8', 'No such message.');
  });
  await listenOrAny(smtp, options.smtpPort ?? 1025, host);
  await listenOrAny(viewer, options.viewerPort ?? 1080, host);
  const smtpPort = (smtp.server.address() as net.AddressInfo).port;
  const viewerPort = (viewer.address() as net.AddressInfo).port;
  return {
    smtpUrl: `smtp://${host}:${smtpPort}`,
    viewerUrl: `http://${host}:${viewerPort}/`,
    messages: () => kept,
    async stop() {
      await Promise.all([
        new Promise<void>((resolve) => smtp.close(() => resolve())),
        new Promise<void>((resolve) => viewer.close(() => resolve())),
      ]);
    },
  };
}
