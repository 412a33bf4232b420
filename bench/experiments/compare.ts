/**
 * Runs the event-store benchmark on experimental variants of our append (bench/experiments/appendVariants.ts).
 * Usage: npx tsx bench/experiments/compare.ts ours v-prepared v-scalar-prepared ...   (first = baseline)
 * Env as for `make bench` (BENCH_WRITERS, BENCH_BATCHES, BENCH_SECONDS, BENCH_ROUNDS, DB_POOL_SIZE).
 */
import { benchEventStores } from '../eventStoreBench.js';
import type { StoreKind } from '../eventStoreAdapters.js';

const stores = process.argv.slice(2) as StoreKind[];
const { markdown } = await benchEventStores({ stores: stores.length ? stores : ['ours', 'emmett'] });
console.log(markdown);
