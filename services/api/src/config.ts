import path from 'node:path';
import { z } from 'zod';

const Env = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  DATABASE_URL: z.string().url().optional().or(z.literal('').transform(() => undefined)),
  KAFKA_BROKERS: z.string().optional().or(z.literal('').transform(() => undefined)),
  KAFKA_TOPIC: z.string().min(1).default('claims.events.v1'),
  KAFKA_GROUP_PREFIX: z.string().min(1).default('projection'),
  DATA_DIR: z.string().default('.data'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SEED_DEMO: z.enum(['true', 'false']).default('true').transform((v) => v === 'true'),
  DEMO_FIXTURE: z.string().default('fixtures/demo.json'),
  WEBHOOK_ALLOW_PRIVATE_URLS: z.enum(['true', 'false']).default('false').transform((v) => v === 'true'),
  // Abuse limits of the customer lookup and filing (services/api/src/rate-limit); 0 turns one limit off.
  RATE_LIMIT_ENABLED: z.enum(['true', 'false']).default('true').transform((v) => v === 'true'),
  RATE_LIMIT_WINDOW_MS: z.coerce.number().int().positive().default(60_000),
  RATE_LIMIT_LOOKUP_PER_IP: z.coerce.number().int().nonnegative().default(20),
  RATE_LIMIT_LOOKUP_PER_ORDER: z.coerce.number().int().nonnegative().default(10),
  RATE_LIMIT_FILING_PER_IP: z.coerce.number().int().nonnegative().default(5),
  RATE_LIMIT_FILING_PER_ORDER: z.coerce.number().int().nonnegative().default(5),
  RATE_LIMIT_UPLOAD_PER_IP: z.coerce.number().int().nonnegative().default(30),
  // Error reporting (services/api/src/observability): on only when both are set.
  SENTRY_DSN: z.string().url().optional().or(z.literal('').transform(() => undefined)),
  SENTRY_ENVIRONMENT: z.string().max(64).optional().or(z.literal('').transform(() => undefined)),
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
  seedDemo: boolean;
  demoFixture: string;
  webhookAllowPrivateUrls: boolean;
  rateLimit: {
    enabled: boolean;
    windowMs: number;
    lookupPerIp: number;
    lookupPerOrder: number;
    filingPerIp: number;
    filingPerOrder: number;
    uploadPerIp: number;
  };
  /** Both set, or error reporting is off. */
  sentry: { dsn: string; environment: string } | null;
};

/** Reads the contract's variables; a bad value stops start-up with the variable named. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = Env.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    kafkaBrokers: e.KAFKA_BROKERS,
    kafkaTopic: e.KAFKA_TOPIC,
    kafkaGroupPrefix: e.KAFKA_GROUP_PREFIX,
    dataDir: path.resolve(e.DATA_DIR),
    logLevel: e.LOG_LEVEL,
    seedDemo: e.SEED_DEMO,
    demoFixture: path.resolve(e.DEMO_FIXTURE),
    webhookAllowPrivateUrls: e.WEBHOOK_ALLOW_PRIVATE_URLS,
    rateLimit: {
      enabled: e.RATE_LIMIT_ENABLED,
      windowMs: e.RATE_LIMIT_WINDOW_MS,
      lookupPerIp: e.RATE_LIMIT_LOOKUP_PER_IP,
      lookupPerOrder: e.RATE_LIMIT_LOOKUP_PER_ORDER,
      filingPerIp: e.RATE_LIMIT_FILING_PER_IP,
      filingPerOrder: e.RATE_LIMIT_FILING_PER_ORDER,
      uploadPerIp: e.RATE_LIMIT_UPLOAD_PER_IP,
    },
    sentry: e.SENTRY_DSN && e.SENTRY_ENVIRONMENT ? { dsn: e.SENTRY_DSN, environment: e.SENTRY_ENVIRONMENT } : null,
  };
}
