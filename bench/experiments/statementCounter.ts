/**
 * Loaded with `--import` into a process of commandCeiling.ts (EXP_COUNT=1): counts every statement the process
 * sends through `pg` by its name or first words, as commandRoundTrips.ts does in-process, and on SIGUSR2 writes
 * the counts so far to EXP_COUNT_FILE, so the experiment can tell each worker's statements per claim.
 */
import fs from 'node:fs';
import pg from 'pg';
import { statementLabel } from './statementLabel.js';

const counts = new Map<string, number>();

const labelOf = (config: unknown) => statementLabel(config, 80);

const originalQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function countedQuery(this: pg.Client, ...args: unknown[]) {
  const label = labelOf(args[0]);
  counts.set(label, (counts.get(label) ?? 0) + 1);
  return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
} as typeof pg.Client.prototype.query;

process.on('SIGUSR2', () => {
  fs.writeFileSync(process.env.EXP_COUNT_FILE!, JSON.stringify(Object.fromEntries(counts)));
});
