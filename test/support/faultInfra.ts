import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { eventually } from './testDatabase.js';

/**
 * What the fault tests kill and start again: their own PostgreSQL cluster and Kafka broker or brokers (on ports
 * of their own, never the shared ones other tests use), and the API and worker as child processes.
 */

const root = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

/** A TCP port nothing listens on right now. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const script = (name: string, args: string[], env: NodeJS.ProcessEnv) =>
  run(path.join(root, 'infra/scripts', name), args, { env: { ...process.env, ...env }, maxBuffer: 1 << 20 });

/** The newest installed PostgreSQL server's programs, as infra/scripts/postgres.sh picks them; null when none is installed. */
export function installedPostgresBin(): string | null {
  if (!fs.existsSync('/usr/lib/postgresql')) return null;
  const versions = fs
    .readdirSync('/usr/lib/postgresql')
    .filter((v) => fs.existsSync(`/usr/lib/postgresql/${v}/bin/pg_ctl`));
  const newest = versions.sort((a, b) => Number(a) - Number(b)).at(-1);
  return newest ? `/usr/lib/postgresql/${newest}/bin` : null;
}

function postgresBin(): string {
  const bin = installedPostgresBin();
  if (!bin) throw new Error('no PostgreSQL server under /usr/lib/postgresql');
  return bin;
}

/** pg_ctl refuses root; postgres.sh runs it as the postgres user the same way. */
const asOwner = (command: string, args: string[]) =>
  process.getuid?.() === 0 ? run('runuser', ['-u', 'postgres', '--', command, ...args]) : run(command, args);

export interface OwnPostgres {
  url: string;
  start(): Promise<void>;
  /** `pg_ctl stop -m immediate`: every backend dies at once, no checkpoint; the next start recovers from the WAL. */
  crash(): Promise<void>;
  dispose(): Promise<void>;
}

export async function ownPostgres(runDir: string): Promise<OwnPostgres> {
  const port = await freePort();
  const env = { POSTGRES_PORT: String(port), POSTGRES_RUN_DIR: runDir };
  const pgdata = path.join(runDir, 'data');
  const pgCtl = path.join(postgresBin(), 'pg_ctl');
  return {
    url: `postgres://postgres@127.0.0.1:${port}/claims`,
    start: async () => {
      await script('postgres.sh', ['start'], env);
    },
    crash: async () => {
      await asOwner(pgCtl, ['-D', pgdata, '-m', 'immediate', '-w', 'stop']);
    },
    dispose: async () => {
      await asOwner(pgCtl, ['-D', pgdata, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
    },
  };
}

export interface OwnKafka {
  brokers: string;
  /** Starts every node not running (after a kill, only that one). */
  start(): Promise<void>;
  /** SIGKILL of a node's JVM (1 to the cluster's size): no controlled shutdown, the next start recovers its logs. */
  kill(node?: number): Promise<void>;
  dispose(): Promise<void>;
}

/** A broker of the test's own (infra/scripts/kafka.sh), or with `nodes` 3 a cluster of three, on free ports. */
export async function ownKafka(runDir: string, nodes: 1 | 3 = 1): Promise<OwnKafka> {
  const ports = await Promise.all(Array.from({ length: nodes }, () => freePort()));
  const controllerPorts = await Promise.all(Array.from({ length: nodes }, () => freePort()));
  const env =
    nodes === 1
      ? { KAFKA_PORT: String(ports[0]), KAFKA_CONTROLLER_PORT: String(controllerPorts[0]), KAFKA_RUN_DIR: runDir }
      : {
          KAFKA_CLUSTER: '3',
          KAFKA_PORTS: ports.join(','),
          KAFKA_CONTROLLER_PORTS: controllerPorts.join(','),
          KAFKA_RUN_DIR: runDir,
        };
  const pid = (node: number) =>
    Number(fs.readFileSync(path.join(nodes === 1 ? runDir : path.join(runDir, `node${node}`), 'kafka.pid'), 'utf8'));
  return {
    brokers: ports.map((port) => `127.0.0.1:${port}`).join(','),
    start: async () => {
      await script('kafka.sh', ['start'], env);
    },
    kill: async (node = 1) => {
      const broker = pid(node);
      process.kill(broker, 'SIGKILL');
      while (isAlive(broker)) await new Promise((resolve) => setTimeout(resolve, 50));
    },
    dispose: async () => {
      await script('kafka.sh', ['stop', '--clean'], env).catch(() => undefined);
    },
  };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** What a fault test's API and worker processes run with: its own database, broker, topic and port, no rate limits. */
export const serviceEnv = (own: {
  databaseUrl: string;
  kafkaBrokers: string;
  topic: string;
  groupPrefix: string;
  dataDir: string;
  port: number;
}): NodeJS.ProcessEnv => ({
  ...process.env,
  DATABASE_URL: own.databaseUrl,
  KAFKA_BROKERS: own.kafkaBrokers,
  KAFKA_TOPIC: own.topic,
  KAFKA_GROUP_PREFIX: own.groupPrefix,
  DATA_DIR: own.dataDir,
  PORT: String(own.port),
  HOST: '127.0.0.1',
  LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn',
  WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
  RATE_LIMIT_ENABLED: 'false',
});

/** Polls `check` until it passes; failing after `timeoutMs`, it says what was awaited and where the processes' logs are. */
export const waiterLoggingTo =
  (logs: string) =>
  <T>(what: string, check: () => Promise<T>, timeoutMs = 120_000): Promise<T> =>
    eventually(check, timeoutMs, 100).catch((error: unknown) => {
      throw new Error(
        `${what} did not happen within ${timeoutMs / 1000} s (logs in ${logs}): ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    });

/** A Node entry point of the API run as a child process, its output appended to a log file. */
export class ServiceProcess {
  private child: ChildProcess | null = null;
  private killing = false;
  /** Exits nobody asked for (the process died on its own): each is a defect. */
  readonly unexpectedExits: string[] = [];

  constructor(
    readonly name: string,
    private readonly entry: string,
    private readonly logFile: string,
  ) {}

  start(env: NodeJS.ProcessEnv): void {
    const log = fs.openSync(this.logFile, 'a');
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, this.entry)], {
      cwd: root,
      env,
      stdio: ['ignore', log, log],
    });
    fs.closeSync(log);
    this.killing = false;
    child.once('exit', (code, signal) => {
      if (!this.killing)
        this.unexpectedExits.push(
          `${this.name} exited by itself (code ${code}, signal ${signal}); see ${this.logFile}`,
        );
    });
    this.child = child;
  }

  get running(): boolean {
    return this.child !== null && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** SIGKILL: no shutdown hook runs, whatever was in flight is cut off. */
  kill(): Promise<void> {
    return this.signal('SIGKILL');
  }

  /** SIGTERM: the process stops its workers and closes its connections. */
  stop(): Promise<void> {
    return this.signal('SIGTERM');
  }

  private signal(signal: NodeJS.Signals): Promise<void> {
    const child = this.child;
    if (!child || !this.running) return Promise.resolve();
    this.killing = true;
    return new Promise((resolve) => {
      child.once('exit', () => resolve());
      child.kill(signal);
    });
  }
}
