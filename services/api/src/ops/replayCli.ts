import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import { migrate, openDatabase } from '@claims/event-store';
import { PROJECTIONS, rebuild } from '@claims/projections';
import { ALL_MIGRATIONS } from '../runtime.js';

/**
 * `make replay` / `npm run replay -- --projection NAME`: rebuilds read models from the event store
 * with a progress bar, each beside its live version and switched in at the end, so on PostgreSQL the
 * server keeps serving meanwhile. With PGlite, stop the server first: one process per data folder.
 */
const { values } = parseArgs({ options: { projection: { type: 'string', multiple: true } } });
const names = values.projection ?? PROJECTIONS.map((p) => p.name);
const unknown = names.filter((n) => !PROJECTIONS.some((p) => p.name === n));
if (unknown.length > 0) {
  console.error(`Unknown projection ${unknown.join(', ')}; known: ${PROJECTIONS.map((p) => p.name).join(', ')}`);
  process.exit(2);
}

const database = await openDatabase({
  databaseUrl: process.env.DATABASE_URL || undefined,
  dataDir: process.env.DATA_DIR ?? '.data',
});
try {
  await migrate(database, ALL_MIGRATIONS);
  for (const projection of PROJECTIONS.filter((p) => names.includes(p.name))) {
    const bar = new cliProgress.SingleBar(
      {
        format: ` ${projection.name.padEnd(16)} |{bar}| {percentage}% | {value}/{total} events | {duration_formatted}`,
        hideCursor: true,
        noTTYOutput: true,
        notTTYSchedule: 1000,
      },
      cliProgress.Presets.shades_classic,
    );
    bar.start(1, 0);
    const result = await rebuild(database.db, projection, ({ done, total }) => {
      bar.setTotal(Math.max(total, 1));
      bar.update(done);
    });
    bar.update(result.done);
    bar.stop();
  }
} finally {
  await database.close();
}
