import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * What a bench's API server under load is started with besides its database and Kafka: no rate limits, every worker,
 * webhooks allowed to the bench's local receiver, and no mail, metrics token or error reporting.
 */
export const loadedServerEnv = {
  RATE_LIMIT_ENABLED: 'false',
  WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
  WORKERS: 'all',
  DEMO_FIXTURE: path.join(root, 'fixtures/demo.json'),
  SENTRY_DSN: '',
  SMTP_URL: '',
  METRICS_TOKEN: '',
} as const;
