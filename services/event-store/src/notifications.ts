import pg from 'pg';

export interface Subscription {
  stop(): Promise<void>;
}

const CHANNEL = /^[a-z_][a-z0-9_]*$/;

/**
 * LISTENs on `channel` from a connection of its own and calls `listener` on each notification. A lost
 * connection is opened again (backing off up to 5 s), and `listener` is called once it listens again:
 * PostgreSQL keeps nothing for a session that was not listening.
 */
export function listenOnPostgres(
  url: string,
  channel: string,
  listener: (payload?: string) => void,
  onError: (error: unknown) => void,
): Subscription {
  // Sent as part of the statement's text: LISTEN takes no parameter.
  if (!CHANNEL.test(channel)) throw new Error(`${JSON.stringify(channel)} is not a plain lower-case channel name`);
  let stopped = false;
  let failures = 0;
  let current: pg.Client | null = null;
  let retry: NodeJS.Timeout | undefined;

  function open(): void {
    const client = new pg.Client({ connectionString: url, keepAlive: true });
    let lost = false;
    const lose = (error?: unknown) => {
      if (lost) return;
      lost = true;
      if (stopped) return;
      if (error !== undefined) onError(error);
      current = null;
      void client.end().catch(() => undefined);
      retry = setTimeout(open, Math.min(250 * 2 ** failures++, 5_000));
    };
    client.on('notification', (message) => {
      if (message.channel === channel) listener(message.payload);
    });
    client.on('error', lose);
    client.on('end', () => lose());
    current = client;
    void client
      .connect()
      .then(() => client.query(`listen ${channel}`))
      .then(() => {
        failures = 0;
        if (!stopped) listener();
      }, lose);
  }
  open();

  return {
    async stop() {
      stopped = true;
      clearTimeout(retry);
      // Ends a connection still being opened too (an unreachable server must not hold a shutdown up).
      await current?.end().catch(() => undefined);
    },
  };
}
