import type { Logger } from 'pino';
import type { Actor } from '@claims/contracts';
import type { Database } from '@claims/event-store';
import type { Config } from './config.js';

/** What every route and command handler works with. */
export interface AppContext {
  readonly config: Config;
  readonly database: Database;
  readonly log: Logger;
  now(): string;
}

/** Who is asking, and under which correlation id: stamped on every event a request causes. */
export interface RequestMeta {
  actor: Actor;
  correlationId: string;
  causationId: string | null;
  /** With an Idempotency-Key: the hash of the request it came with (see customer/fileClaim.ts). */
  requestHash?: string;
}
