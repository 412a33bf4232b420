import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

/**
 * The fault suite's long run (`make chaos`): test/faults.it.test.ts for CHAOS_ROUNDS (20) rounds (or CHAOS_MINUTES) of kills in
 * turn, on its own PostgreSQL cluster and Kafka broker; the section is the figures the suite writes.
 */
export async function benchFaultSuite(): Promise<string> {
  const length = process.env.CHAOS_MINUTES
    ? { CHAOS_MINUTES: process.env.CHAOS_MINUTES }
    : { CHAOS_ROUNDS: process.env.CHAOS_ROUNDS ?? '20' };
  const report = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'fault-suite-')), 'figures.md');
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn('npx', ['vitest', 'run', '--project', 'chaos'], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, ...length, CHAOS_REPORT: report, WEBHOOK_ALLOW_PRIVATE_URLS: 'true' },
    });
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (code !== 0) throw new Error(`the fault suite failed (exit ${code}); its checks above say what`);
  const figures = fs.readFileSync(report, 'utf8').trim();
  fs.rmSync(path.dirname(report), { recursive: true, force: true });
  return [
    '## Fault suite',
    '',
    `\`make chaos\` (\`${Object.entries(length)
      .map(([k, v]) => `${k}=${v}`)
      .join('')}\`): test/faults.it.test.ts runs its own PostgreSQL cluster (initdb defaults, same server ` +
      'binaries as above) and its own Kafka broker, an API process (`WORKERS=none`) and a worker process (`npm run worker`), and lanes of ' +
      'shoppers and an integrator over HTTP: a fresh order (`PUT /api/v1/orders`), a filing, two messages and a v1 resolution each. It kills in ' +
      'turn the API (SIGKILL), the worker (SIGKILL), the broker (SIGKILL of its JVM) and PostgreSQL (`pg_ctl stop -m immediate`), restarts ' +
      'each, and afterwards checks that every acknowledged command is in the store, that every read model equals a full replay, that every ' +
      "webhook owed reached the receiver, and that no 5xx came outside PostgreSQL's restart. `make test` runs one round of it.",
    '',
    figures,
  ].join('\n');
}
