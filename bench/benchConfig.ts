import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig, type Config } from '../services/api/src/index.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The API's settings for a bench's own in-process server: the demo seeded into `databaseUrl` (PGlite in `dataDir` when
 * empty), no Kafka, warnings only, and no error reporting whatever the shell's environment says.
 */
export const benchConfig = (databaseUrl: string, dataDir: string): Config =>
  loadConfig({
    ...process.env,
    DATABASE_URL: databaseUrl,
    KAFKA_BROKERS: '',
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    SEED_DEMO: 'true',
    LOG_LEVEL: 'warn',
    DEMO_FIXTURE: path.join(root, 'fixtures/demo.json'),
    SENTRY_DSN: '',
    SENTRY_ENVIRONMENT: '',
  });
