import type { TestProject } from 'vitest/node';
import { seedDataDirOnce } from './seededDemo.js';

/** The browser tests' servers run on PGlite: each starts from a copy of one seeded folder. */
export default async function setup(project: TestProject): Promise<() => void> {
  const seeded = await seedDataDirOnce();
  project.provide('seededDataDir', seeded.dir);
  return seeded.remove;
}
