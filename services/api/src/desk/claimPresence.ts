import { randomUUID } from 'node:crypto';
import { sql, type QueryExecutorProvider } from 'kysely';
import type { Migration } from 'kysely/migration';
import { sqlMigration } from '@claims/event-store';
import type { ClaimViewer } from '@claims/contracts';

/**
 * Who has which claim open: one row per open claim page (an SSE connection), kept alive by its API
 * process's heartbeat. It lives in PostgreSQL, not in a process's memory, because the API may run as
 * several processes (API_PROCESSES): two agents on one claim are often served by different ones.
 */
export const presenceMigrations: Record<string, Migration> = {
  '2350_claim_presence': sqlMigration(
    sql`
      create table claim_presence (
        connection_id uuid primary key,
        claim_id uuid not null,
        user_id text not null,
        user_name text not null,
        seen_at timestamptz not null default now()
      )`,
    sql`create index claim_presence_claim on claim_presence (claim_id)`,
  ),
};

export interface PresenceTiming {
  /** How often a process refreshes its connections' rows and reads who else is on its watched claims. */
  heartbeatMs: number;
  /** A row not refreshed for this long belongs to a process that died: it no longer counts. */
  staleMs: number;
}

export const PRESENCE_TIMING: PresenceTiming = { heartbeatMs: 2_000, staleMs: 15_000 };

interface Watcher {
  connectionId: string;
  claimId: string;
  viewer: ClaimViewer;
  send(viewers: ClaimViewer[]): void;
  /** The last list sent, as JSON: a list is sent only when it changes. */
  sent: string | null;
}

/**
 * One per API process: registers its open claim pages in `claim_presence` and tells each who else has
 * the same claim open. A join or leave is written at once and this process's own watchers of that
 * claim hear of it at once; other processes' watchers within a heartbeat, when their process reads the
 * table again. Each heartbeat is two statements for the whole process, whatever the number of pages.
 */
export class ClaimPresenceHub {
  private readonly watchers = new Map<string, Watcher>();
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: QueryExecutorProvider,
    private readonly timing: PresenceTiming = PRESENCE_TIMING,
    private readonly onError: (error: unknown) => void = () => {},
  ) {}

  /** Marks the claim open by `viewer` and calls `send` with who else has it open, now and on every change; returns the leave. */
  async join(
    claimId: string,
    viewer: ClaimViewer,
    send: (viewers: ClaimViewer[]) => void,
  ): Promise<() => Promise<void>> {
    const watcher: Watcher = { connectionId: randomUUID(), claimId, viewer, send, sent: null };
    await sql`insert into claim_presence (connection_id, claim_id, user_id, user_name) values (${watcher.connectionId}, ${claimId}, ${viewer.userId}, ${viewer.name})`.execute(
      this.db,
    );
    this.watchers.set(watcher.connectionId, watcher);
    this.timer ??= setInterval(() => {
      this.ticking = this.ticking.then(() => this.heartbeat()).catch(this.onError);
    }, this.timing.heartbeatMs);
    await this.push([claimId]);
    let left = false;
    return async () => {
      if (left) return;
      left = true;
      this.watchers.delete(watcher.connectionId);
      if (this.watchers.size === 0 && this.timer) {
        clearInterval(this.timer);
        this.timer = null;
      }
      await sql`delete from claim_presence where connection_id = ${watcher.connectionId}`.execute(this.db);
      await this.push([claimId]);
    };
  }

  /** Stops the heartbeat (the process is closing; its rows expire with it if they are not deleted). */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.ticking;
  }

  private async heartbeat(): Promise<void> {
    const connections = [...this.watchers.keys()];
    if (connections.length === 0) return;
    await sql`update claim_presence set seen_at = now() where connection_id = any(${connections}::uuid[])`.execute(
      this.db,
    );
    await sql`delete from claim_presence where seen_at < now() - make_interval(secs => ${this.timing.staleMs / 1000})`.execute(
      this.db,
    );
    await this.push([...new Set([...this.watchers.values()].map((w) => w.claimId))]);
  }

  /** Reads who has these claims open and tells each local watcher of them who else does, when that changed. */
  private async push(claimIds: string[]): Promise<void> {
    const { rows } = await sql<{ claim_id: string; user_id: string; user_name: string }>`
      select distinct claim_id, user_id, user_name from claim_presence
      where claim_id = any(${claimIds}::uuid[]) and seen_at >= now() - make_interval(secs => ${this.timing.staleMs / 1000})
      order by user_name, user_id`.execute(this.db);
    for (const watcher of this.watchers.values()) {
      if (!claimIds.includes(watcher.claimId)) continue;
      const others = new Map<string, ClaimViewer>();
      for (const row of rows) {
        // The same person in another tab is not someone else.
        if (row.claim_id === watcher.claimId && row.user_id !== watcher.viewer.userId)
          others.set(row.user_id, { userId: row.user_id, name: row.user_name });
      }
      const viewers = [...others.values()];
      const json = JSON.stringify(viewers);
      if (json === watcher.sent) continue;
      watcher.sent = json;
      watcher.send(viewers);
    }
  }
}
