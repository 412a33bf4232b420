/**
 * Writes gathered while the write before them is under way, then written together (a group commit): work that
 * finishes one item at a time (mail, each sent on its own; orders and API calls arriving over many connections) is
 * done in one statement per group instead of one per item, and no item waits for more than the write before it.
 * `write` answers one outcome per item, in order.
 */
export function groupCommit<Item, Outcome>(
  write: (items: readonly Item[]) => Promise<Outcome[]>,
): (item: Item) => Promise<Outcome> {
  let waiting: Array<{ item: Item; resolve: (outcome: Outcome) => void; reject: (error: unknown) => void }> = [];
  let writing = false;
  async function drain(): Promise<void> {
    writing = true;
    while (waiting.length > 0) {
      const group = waiting;
      waiting = [];
      try {
        const outcomes = await write(group.map((w) => w.item));
        group.forEach((w, i) => w.resolve(outcomes[i]!));
      } catch (error) {
        for (const w of group) w.reject(error);
      }
    }
    writing = false;
  }
  return (item) =>
    new Promise<Outcome>((resolve, reject) => {
      waiting.push({ item, resolve, reject });
      if (!writing) void drain();
    });
}

/**
 * One group commit per owner (a runtime's context), made on first use: the calls of one runtime are gathered together,
 * and another runtime in the same process (tests run several) has its own.
 */
export function groupCommitPer<Owner extends object, Item, Outcome>(
  write: (owner: Owner, items: readonly Item[]) => Promise<Outcome[]>,
): (owner: Owner, item: Item) => Promise<Outcome> {
  const commits = new WeakMap<Owner, (item: Item) => Promise<Outcome>>();
  return (owner, item) => {
    let commit = commits.get(owner);
    if (!commit) {
      commit = groupCommit((items: readonly Item[]) => write(owner, items));
      commits.set(owner, commit);
    }
    return commit(item);
  };
}
