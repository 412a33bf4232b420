/**
 * Runs `work` on every item: the items of one key one after another in the order given (a claim's mail in the order of
 * its events), different keys at the same time, at most `concurrency` at once. A failure stops the rest of its own key
 * (what comes after it must not overtake it) but not the other keys; the first one is thrown once everything settled.
 */
export async function eachInOrderPerKey<Item>(
  items: readonly Item[],
  keyOf: (item: Item) => string,
  concurrency: number,
  work: (item: Item) => Promise<void>,
): Promise<void> {
  const lanes = new Map<string, Item[]>();
  for (const item of items) {
    const key = keyOf(item);
    const lane = lanes.get(key);
    if (lane) lane.push(item);
    else lanes.set(key, [item]);
  }
  const queue = [...lanes.values()];
  const failures: unknown[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(Math.max(1, concurrency), queue.length) }, async () => {
      for (let lane = queue[next++]; lane; lane = queue[next++]) {
        for (const item of lane) {
          try {
            await work(item);
          } catch (error) {
            failures.push(error);
            break;
          }
        }
      }
    }),
  );
  if (failures.length > 0) throw failures[0];
}
