import path from 'node:path';
import { z } from 'zod';

/** OWASP's scrypt advice (Password Storage Cheat Sheet): N=2^17, r=8, p=1, about 128 MiB per hash; production's least. */
export const OWASP_SCRYPT_N = 2 ** 17;

/** The scrypt cost new hashes are made with (config `PASSWORD_SCRYPT_N`); r and p stay OWASP's. */
export interface ScryptCost {
  N: number;
  r: number;
  p: number;
}
export const scryptCost = (N: number): ScryptCost => ({ N, r: 8, p: 1 });

/** Sign-in attempts counted per fixed window before a lock (auth/loginThrottle.ts). */
export interface LoginLimits {
  windowMinutes: number;
  perEmailAndClient: number;
  perClient: number;
  perEmail: number;
}

/** `false`/`true`, a hop count, or addresses and CIDR ranges of the proxies (what Fastify's `trustProxy` takes). */
export type TrustProxy = boolean | number | string[];

function parseTrustProxy(value: string, ctx: z.RefinementCtx): TrustProxy {
  if (value === '' || value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  const list = value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  if (list.length === 0 || list.some((part) => !/^[\d.:a-fA-F]+(\/\d{1,3})?$/.test(part))) {
    ctx.addIssue({
      code: 'custom',
      message: 'false, true, a number of hops, or a comma-separated list of proxy addresses (CIDR allowed)',
    });
    return false;
  }
  return list;
}

/** The background workers a process can run beside (or instead of) HTTP; `WORKERS` picks them. */
export const WORKER_KINDS = ['relay', 'projectors', 'reactions', 'delivery', 'timers'] as const;
export type WorkerKind = (typeof WORKER_KINDS)[number];

const Workers = z
  .string()
  .default('all')
  .transform((value, ctx) => {
    const names = value
      .split(',')
      .map((n) => n.trim())
      .filter(Boolean);
    if (names.length === 1 && (names[0] === 'all' || names[0] === 'none'))
      return new Set<WorkerKind>(names[0] === 'all' ? WORKER_KINDS : []);
    const unknown = names.filter((n) => !(WORKER_KINDS as readonly string[]).includes(n));
    if (unknown.length > 0) {
      ctx.addIssue({
        code: 'custom',
        message: `unknown worker ${unknown.join(', ')}; use all, none or a list of ${WORKER_KINDS.join(', ')}`,
      });
      return z.NEVER;
    }
    return new Set(names as WorkerKind[]);
  });

const Env = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  DATABASE_URL: z
    .string()
    .url()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  KAFKA_BROKERS: z
    .string()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  KAFKA_TOPIC: z.string().min(1).default('claims.events.v1'),
  KAFKA_GROUP_PREFIX: z.string().min(1).default('projection'),
  DATA_DIR: z.string().default('.data'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  NODE_ENV: z.string().optional(),
  // Demo users have a published password: only `make dev` and the tests turn this on.
  SEED_DEMO: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  // Fastify's trustProxy: false, true, a number of hops, or a comma-separated list of addresses/CIDRs.
  TRUST_PROXY: z.string().trim().default('false').transform(parseTrustProxy),
  DEMO_FIXTURE: z.string().default('fixtures/demo.json'),
  WEBHOOK_ALLOW_PRIVATE_URLS: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  // An endpoint whose every attempt failed for this long is turned off (docs/decisions/webhooks.md): 3 days.
  WEBHOOK_DISABLE_AFTER_FAILING_SECONDS: z.coerce
    .number()
    .int()
    .positive()
    .default(3 * 86_400),
  // Attempts under way to one endpoint at most, across every worker: a slow receiver holds no more senders. Each place
  // turns over once per claim, send and record; at 4, one endpoint's deliveries fell behind 100 filings/s (bench/experiments/README.md).
  WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT: z.coerce.number().int().positive().max(100).default(16),
  // Sends on request per endpoint (webhooks/endpointOperations.ts): test deliveries and single replays a minute, range replays an hour.
  WEBHOOK_TESTS_PER_MINUTE: z.coerce.number().int().positive().default(10),
  WEBHOOK_REPLAYS_PER_MINUTE: z.coerce.number().int().positive().default(60),
  WEBHOOK_RANGE_REPLAYS_PER_HOUR: z.coerce.number().int().positive().default(10),
  // The delivery worker's poll, for retries coming due: new deliveries wake it at once (LISTEN/NOTIFY).
  WEBHOOK_POLL_MS: z.coerce.number().int().positive().default(250),
  // Abuse limits of the customer lookup and filing (services/api/src/rate-limit); 0 turns one limit off.
  RATE_LIMIT_ENABLED: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  RATE_LIMIT_WINDOW_MS: z.coerce.number().int().positive().default(60_000),
  RATE_LIMIT_LOOKUP_PER_IP: z.coerce.number().int().nonnegative().default(20),
  RATE_LIMIT_LOOKUP_PER_ORDER: z.coerce.number().int().nonnegative().default(10),
  RATE_LIMIT_FILING_PER_IP: z.coerce.number().int().nonnegative().default(5),
  RATE_LIMIT_FILING_PER_ORDER: z.coerce.number().int().nonnegative().default(5),
  // Mail to shoppers (services/api/src/notifications): without SMTP_URL it is kept under DATA_DIR/mail.
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'an smtp:// or smtps:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  MAIL_FROM: z.string().min(3).default('Order Protection <claims@orderprotection.test>'),
  /** SMTP connections a process keeps open and sends on at once (docs/decisions/mail-keeps-pace.md). */
  SMTP_MAX_CONNECTIONS: z.coerce.number().int().positive().max(50).default(5),
  /** Where shoppers reach the portal: the origin of the links in mail (default: this server's address; required in production). */
  PUBLIC_URL: z
    .string()
    .url()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  // Sign-in throttling (services/api/src/auth/loginThrottle.ts): failures per window per (email, client), client, email.
  LOGIN_WINDOW_MINUTES: z.coerce.number().int().positive().default(15),
  LOGIN_MAX_FAILURES: z.coerce.number().int().positive().default(5),
  LOGIN_MAX_FAILURES_PER_CLIENT: z.coerce.number().int().positive().default(30),
  LOGIN_MAX_FAILURES_PER_EMAIL: z.coerce.number().int().positive().default(100),
  // scrypt's cost for new password hashes (auth/passwords.ts); below OWASP's 2^17 only outside production (the tests sign in hundreds of times).
  PASSWORD_SCRYPT_N: z.coerce
    .number()
    .int()
    .min(2 ** 14)
    .max(2 ** 20)
    .refine((n) => (n & (n - 1)) === 0, 'a power of two')
    .default(OWASP_SCRYPT_N),
  RATE_LIMIT_UPLOAD_PER_IP: z.coerce.number().int().nonnegative().default(30),
  // Claim-link requests (each mails the shopper): per client address and per order number.
  RATE_LIMIT_RECOVERY_PER_IP: z.coerce.number().int().nonnegative().default(5),
  RATE_LIMIT_RECOVERY_PER_ORDER: z.coerce.number().int().nonnegative().default(3),
  // Error reporting (services/api/src/observability): on only when both are set.
  SENTRY_DSN: z
    .string()
    .url()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  SENTRY_ENVIRONMENT: z
    .string()
    .max(64)
    .optional()
    .or(z.literal('').transform(() => undefined)),
  WORKERS: Workers,
  // Durability of the events topic: 1/1 fits the single local broker; production wants 3/2.
  KAFKA_REPLICATION_FACTOR: z.coerce.number().int().positive().default(1),
  KAFKA_MIN_INSYNC_REPLICAS: z.coerce.number().int().positive().default(1),
  // HTTP served by this many processes sharing the port (node:cluster); the first runs the background workers (main.ts).
  API_PROCESSES: z.coerce.number().int().min(1).max(64).default(1),
  DB_POOL_SIZE: z.coerce.number().int().positive().default(20),
  DB_STATEMENT_TIMEOUT_MS: z.coerce.number().int().nonnegative().default(30_000),
  DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: z.coerce.number().int().nonnegative().default(60_000),
  DB_CONNECT_TIMEOUT_MS: z.coerce.number().int().nonnegative().default(10_000),
  HEALTH_MAX_TRANSACTION_AGE_SECONDS: z.coerce.number().positive().default(60),
  PROJECTION_MAX_ATTEMPTS: z.coerce.number().int().positive().default(5),
  // The key of the shopper's keyed email hash that links their claims across stores for risk (docs/decisions/automation.md).
  SHOPPER_KEY_SECRET: z
    .string()
    .min(32, 'at least 32 characters')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  // The bearer token of GET /api/metrics; unset, anyone reads them (development only: production refuses to start).
  METRICS_TOKEN: z
    .string()
    .min(16, 'at least 16 characters')
    .optional()
    .or(z.literal('').transform(() => undefined)),
});

export type Config = {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  kafkaBrokers: string | undefined;
  /** The contract's topic; overridable so test runs sharing one broker stay apart. */
  kafkaTopic: string;
  kafkaGroupPrefix: string;
  dataDir: string;
  logLevel: z.infer<typeof Env>['LOG_LEVEL'];
  /** `NODE_ENV=production`: refuses demo users, sets `__Host-` Secure cookies and HSTS. */
  production: boolean;
  seedDemo: boolean;
  trustProxy: TrustProxy;
  demoFixture: string;
  webhookAllowPrivateUrls: boolean;
  /** An endpoint whose every attempt has failed for this long is disabled. */
  webhookDisableAfterFailingMs: number;
  /** Attempts under way to one endpoint at once, across every delivery worker. */
  webhookMaxInFlightPerEndpoint: number;
  webhookPollMs: number;
  /** What one endpoint may be sent on request, whoever asks: test deliveries and single replays a minute, range replays an hour. */
  webhookSendLimits: { testsPerMinute: number; replaysPerMinute: number; rangeReplaysPerHour: number };
  rateLimit: {
    enabled: boolean;
    windowMs: number;
    lookupPerIp: number;
    lookupPerOrder: number;
    filingPerIp: number;
    filingPerOrder: number;
    uploadPerIp: number;
    recoveryPerIp: number;
    recoveryPerOrder: number;
  };
  loginLimits: LoginLimits;
  /** New password hashes are made at this cost; a stored hash of another is made again at its next sign-in. */
  passwordCost: ScryptCost;
  /** Both set, or error reporting is off. */
  sentry: { dsn: string; environment: string } | null;
  mail: { smtpUrl: string | undefined; from: string; maxConnections: number };
  /** The portal's public origin, without a trailing slash. */
  publicUrl: string;
  /** The background workers this process runs (HTTP is the caller's choice: `npm run worker` serves none). */
  workers: ReadonlySet<WorkerKind>;
  /** HTTP processes (main.ts): above 1, a cluster primary runs the workers and forks this many HTTP-only processes. */
  apiProcesses: number;
  kafkaTopicDurability: { replicationFactor: number; minInsyncReplicas: number };
  db: { poolSize: number; statementTimeoutMs: number; idleInTransactionTimeoutMs: number; connectTimeoutMs: number };
  /** Readiness fails while a transaction has been open longer: readers of the event store wait behind it. */
  healthMaxTransactionAgeSeconds: number;
  /** Tries of an event a projection cannot apply before it is parked. */
  projectionMaxAttempts: number;
  /** Who may read GET /api/metrics (Authorization: Bearer); undefined (never in production): anyone. */
  metricsToken: string | undefined;
  /** The HMAC key of shoppers' email hashes (risk across stores); unset, the installation's own random key. */
  shopperKeySecret: string | undefined;
};

/** Reads the contract's variables; a bad value stops start-up with the variable named. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = Env.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  const production = e.NODE_ENV === 'production';
  if (production && e.SEED_DEMO) {
    throw new Error(
      'Invalid configuration: SEED_DEMO=true with NODE_ENV=production would create the demo users, whose password is published; unset SEED_DEMO.',
    );
  }
  if (e.API_PROCESSES > 1 && !e.DATABASE_URL) {
    throw new Error(
      'Invalid configuration: API_PROCESSES above 1 needs DATABASE_URL: the embedded PGlite database belongs to one process.',
    );
  }
  // Contract: turning the shopper-facing limits off is for load tests only.
  if (production && !e.RATE_LIMIT_ENABLED) {
    throw new Error(
      'Invalid configuration: RATE_LIMIT_ENABLED=false is refused when NODE_ENV=production (it is for load tests only).',
    );
  }
  if (production && e.PASSWORD_SCRYPT_N < OWASP_SCRYPT_N) {
    throw new Error(
      `Invalid configuration: PASSWORD_SCRYPT_N below ${OWASP_SCRYPT_N} (OWASP's least for scrypt) is refused when NODE_ENV=production.`,
    );
  }
  // Contract §Operations: the figures tell how many claims flow, so production never serves them to anyone.
  if (production && !e.METRICS_TOKEN) {
    throw new Error(
      'Invalid configuration: METRICS_TOKEN is required when NODE_ENV=production (without it GET /api/metrics would answer anyone).',
    );
  }
  // Mailed links (claim links, invitations) are built on it: the default, this server's own address, reaches nobody.
  if (production && !e.PUBLIC_URL) {
    throw new Error(
      'Invalid configuration: PUBLIC_URL is required when NODE_ENV=production: the links in mail are built on it.',
    );
  }
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    kafkaBrokers: e.KAFKA_BROKERS,
    kafkaTopic: e.KAFKA_TOPIC,
    kafkaGroupPrefix: e.KAFKA_GROUP_PREFIX,
    dataDir: path.resolve(e.DATA_DIR),
    logLevel: e.LOG_LEVEL,
    production,
    shopperKeySecret: e.SHOPPER_KEY_SECRET,
    seedDemo: e.SEED_DEMO,
    trustProxy: e.TRUST_PROXY,
    demoFixture: path.resolve(e.DEMO_FIXTURE),
    webhookAllowPrivateUrls: e.WEBHOOK_ALLOW_PRIVATE_URLS,
    webhookDisableAfterFailingMs: e.WEBHOOK_DISABLE_AFTER_FAILING_SECONDS * 1000,
    webhookMaxInFlightPerEndpoint: e.WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT,
    webhookPollMs: e.WEBHOOK_POLL_MS,
    webhookSendLimits: {
      testsPerMinute: e.WEBHOOK_TESTS_PER_MINUTE,
      replaysPerMinute: e.WEBHOOK_REPLAYS_PER_MINUTE,
      rangeReplaysPerHour: e.WEBHOOK_RANGE_REPLAYS_PER_HOUR,
    },
    rateLimit: {
      enabled: e.RATE_LIMIT_ENABLED,
      windowMs: e.RATE_LIMIT_WINDOW_MS,
      lookupPerIp: e.RATE_LIMIT_LOOKUP_PER_IP,
      lookupPerOrder: e.RATE_LIMIT_LOOKUP_PER_ORDER,
      filingPerIp: e.RATE_LIMIT_FILING_PER_IP,
      filingPerOrder: e.RATE_LIMIT_FILING_PER_ORDER,
      uploadPerIp: e.RATE_LIMIT_UPLOAD_PER_IP,
      recoveryPerIp: e.RATE_LIMIT_RECOVERY_PER_IP,
      recoveryPerOrder: e.RATE_LIMIT_RECOVERY_PER_ORDER,
    },
    passwordCost: scryptCost(e.PASSWORD_SCRYPT_N),
    loginLimits: {
      windowMinutes: e.LOGIN_WINDOW_MINUTES,
      perEmailAndClient: e.LOGIN_MAX_FAILURES,
      perClient: e.LOGIN_MAX_FAILURES_PER_CLIENT,
      perEmail: e.LOGIN_MAX_FAILURES_PER_EMAIL,
    },
    sentry: e.SENTRY_DSN && e.SENTRY_ENVIRONMENT ? { dsn: e.SENTRY_DSN, environment: e.SENTRY_ENVIRONMENT } : null,
    mail: { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM, maxConnections: e.SMTP_MAX_CONNECTIONS },
    publicUrl: (e.PUBLIC_URL ?? `http://${e.HOST}:${e.PORT}`).replace(/\/+$/, ''),
    workers: e.WORKERS,
    apiProcesses: e.API_PROCESSES,
    kafkaTopicDurability: {
      replicationFactor: e.KAFKA_REPLICATION_FACTOR,
      minInsyncReplicas: e.KAFKA_MIN_INSYNC_REPLICAS,
    },
    db: {
      poolSize: e.DB_POOL_SIZE,
      statementTimeoutMs: e.DB_STATEMENT_TIMEOUT_MS,
      idleInTransactionTimeoutMs: e.DB_IDLE_IN_TRANSACTION_TIMEOUT_MS,
      connectTimeoutMs: e.DB_CONNECT_TIMEOUT_MS,
    },
    healthMaxTransactionAgeSeconds: e.HEALTH_MAX_TRANSACTION_AGE_SECONDS,
    projectionMaxAttempts: e.PROJECTION_MAX_ATTEMPTS,
    metricsToken: e.METRICS_TOKEN,
  };
}
