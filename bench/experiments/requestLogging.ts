/**
 * What Fastify's per-request logging costs, with the API's own logger (services/api/src/platform/logger.ts:
 * its redaction and URL serializer) writing to /dev/null. One small JSON route, called through `inject`
 * (no sockets), so the difference between the variants is the logging alone:
 *
 * - `info`: as production runs (LOG_LEVEL=info): Fastify logs "incoming request" and "request completed".
 * - `warn`: as the commands bench runs (LOG_LEVEL=warn): the request lines are not written, the child logger still made.
 * - `info-one-line`: LOG_LEVEL=info with `disableRequestLogging` and one summary line per request from an onResponse hook.
 *
 * Usage: npx tsx bench/experiments/requestLogging.ts   (BENCH_REQUESTS=20000 per variant and round, 3 rounds interleaved)
 */
import os from 'node:os';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { createLogger } from '../../services/api/src/platform/logger.js';

type Variant = 'info' | 'warn' | 'info-one-line';
const VARIANTS: readonly Variant[] = ['info', 'warn', 'info-one-line'];
const requests = Number(process.env.BENCH_REQUESTS ?? 20_000);
const rounds = 3;

async function build(variant: Variant) {
  const logger: FastifyBaseLogger = createLogger(
    variant === 'warn' ? 'warn' : 'info',
    pino.destination({ dest: '/dev/null', sync: false }),
  );
  const app = Fastify({ loggerInstance: logger, disableRequestLogging: variant === 'info-one-line' });
  if (variant === 'info-one-line') {
    app.addHook('onResponse', async (request, reply) => {
      request.log.info({ req: request, statusCode: reply.statusCode, ms: Math.round(reply.elapsedTime) }, 'request');
    });
  }
  app.post('/api/claims/:id/messages', async (request, reply) =>
    reply.code(201).send({ id: (request.params as { id: string }).id, ok: true }),
  );
  await app.ready();
  return app;
}

async function measure(variant: Variant): Promise<number> {
  const app = await build(variant);
  const payload = JSON.stringify({ messageContent: 'Any news on this?' });
  for (let i = 0; i < 500; i++)
    await app.inject({
      method: 'POST',
      url: '/api/claims/abc/messages',
      payload,
      headers: { 'content-type': 'application/json' },
    });
  const cpu = process.cpuUsage();
  for (let i = 0; i < requests; i++)
    await app.inject({
      method: 'POST',
      url: '/api/claims/abc/messages',
      payload,
      headers: { 'content-type': 'application/json' },
    });
  const used = process.cpuUsage(cpu);
  await app.close();
  return (used.user + used.system) / requests;
}

const results = new Map<Variant, number[]>(VARIANTS.map((v) => [v, []]));
for (let round = 0; round < rounds; round++) {
  for (const variant of round % 2 === 0 ? VARIANTS : [...VARIANTS].reverse())
    results.get(variant)!.push(await measure(variant));
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const base = median(results.get('warn')!);
console.log(
  `${requests} requests per variant and round, ${rounds} rounds; load average ${os.loadavg()[0]!.toFixed(2)}\n`,
);
console.log('| variant | CPU µs per request (median of rounds) | rounds | against warn |');
console.log('|---|---:|---|---:|');
for (const [variant, values] of results) {
  console.log(
    `| ${variant} | ${median(values).toFixed(1)} | ${values.map((v) => v.toFixed(1)).join(', ')} | ${median(values) - base >= 0 ? '+' : ''}${(median(values) - base).toFixed(1)} µs |`,
  );
}
