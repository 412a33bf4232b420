import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

/** What one run of test/brokerLoss.it.test.ts measured (it appends a line of these to BROKER_LOSS_REPORT). */
export interface BrokerLossFigures {
  seconds: number;
  /** The broker killed: the one leading the group coordinator's partition. */
  victim: number;
  acknowledged: number;
  /** Filings answered 201 between the kill and the broker's restart. */
  filingsWhileDown: number;
  /** From the kill to the first filing made after it being answered. */
  filedAfterKillS: number;
  /** From the kill to that filing's `claim.filed` webhook arriving, one broker still down. */
  webhookAfterKillS: number;
  downS: number;
  /** From the broker's restart to every read model current and no delivery pending. */
  settledAfterBackS: number;
  webhooks: number;
  /** Webhook-ids the receiver got more than once. */
  repeated: number;
}

const runs = () => Number(process.env.BENCH_BROKER_LOSS_RUNS ?? '3');

/**
 * The broker-loss test (`make test` runs it once) run BENCH_BROKER_LOSS_RUNS times (3), each on a three-broker KRaft
 * cluster of its own; a run that fails its checks fails the section.
 */
export async function benchBrokerLoss(): Promise<string> {
  const report = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'broker-loss-')), 'figures.jsonl');
  const loads: number[] = [];
  for (let run = 1; run <= runs(); run++) {
    loads.push(os.loadavg()[0]!);
    console.log(`broker loss: run ${run} of ${runs()}`);
    const code = await new Promise<number | null>((resolve, reject) => {
      const child = spawn('npx', ['vitest', 'run', '--project', 'integration', 'test/brokerLoss.it.test.ts'], {
        cwd: root,
        stdio: 'inherit',
        env: { ...process.env, BROKER_LOSS_REPORT: report, WEBHOOK_ALLOW_PRIVATE_URLS: 'true' },
      });
      child.once('error', reject);
      child.once('exit', resolve);
    });
    if (code !== 0) throw new Error(`broker-loss run ${run} failed (exit ${code}); its checks above say what`);
  }
  const figures = fs
    .readFileSync(report, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as BrokerLossFigures);
  fs.rmSync(path.dirname(report), { recursive: true, force: true });
  const s = (value: number) => value.toFixed(1);
  return [
    '## Broker loss',
    '',
    `test/brokerLoss.it.test.ts, ${figures.length} runs (\`BENCH_BROKER_LOSS_RUNS\`): three KRaft brokers of its own (topic ` +
      'replication factor 3, `min.insync.replicas=2`, the relay idempotent with `acks=all`), an API process and a worker ' +
      'process; three lanes of shoppers file, write and are answered by the integrator while the broker leading the group ' +
      "coordinator's partition is killed (SIGKILL), and started again once a filing made after the kill has its " +
      '`claim.filed` webhook. Each run then checks that nothing acknowledged is missing, every read model and webhook ' +
      'caught up, each `webhook-id` arrived once and the read models equal a replay.',
    '',
    '| run | load (1 min) at start | acknowledged | filings while down | kill → first filing after it answered (s) | kill → its webhook (s) | broker down (s) | restart → settled (s) | webhooks | webhook-ids twice |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...figures.map(
      (f, i) =>
        `| ${i + 1} | ${loads[i]!.toFixed(1)} | ${f.acknowledged} | ${f.filingsWhileDown} | ${s(f.filedAfterKillS)} | ` +
        `${s(f.webhookAfterKillS)} | ${s(f.downS)} | ${s(f.settledAfterBackS)} | ${f.webhooks} | ${f.repeated} |`,
    ),
  ].join('\n');
}
