import net from 'node:net';
import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';

/** A real SMTP server in this process, keeping what it receives; it can be stopped to play a dead one. */
export interface SmtpCatcher {
  port: number;
  url: string;
  received: ParsedMail[];
  stop: () => Promise<void>;
}

export async function startSmtp(port = 0): Promise<SmtpCatcher> {
  const received: ParsedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      // The HTML as sent: `cid:` references left as they are, not turned into data: URLs.
      simpleParser(stream, { skipImageLinks: true }).then((mail) => {
        received.push(mail);
        callback();
      }, callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.server.address() as net.AddressInfo;
  return {
    port: address.port,
    url: `smtp://127.0.0.1:${address.port}`,
    received,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A door in front of an SMTP server: while shut, every connection is dropped at once (a dead server). */
export async function startGate(): Promise<{
  port: number;
  open: (target: number) => void;
  stop: () => Promise<void>;
}> {
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
    open: (port) => {
      target = port;
    },
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
