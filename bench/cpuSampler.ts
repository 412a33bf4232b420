import fs from 'node:fs';

/** Linux CPU accounting (clock ticks) to tell how busy the machine was and who kept it busy. */
interface Snapshot {
  total: number;
  idle: number;
  /** CPU ticks of each live postgres process, by pid: only processes alive at both ends count. */
  postgres: Map<string, number>;
  self: number;
}

function readSnapshot(): Snapshot | null {
  try {
    const cpu = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    const total = cpu.slice(0, 8).reduce((a, b) => a + b, 0);
    const idle = cpu[3]! + cpu[4]!;
    const postgres = new Map<string, number>();
    let self = 0;
    for (const entry of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      let stat: string;
      try {
        stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      } catch {
        continue;
      }
      const close = stat.lastIndexOf(')');
      const comm = stat.slice(stat.indexOf('(') + 1, close);
      const fields = stat.slice(close + 2).split(' ');
      const ticks = Number(fields[11]) + Number(fields[12]);
      if (comm === 'postgres') postgres.set(entry, ticks);
      if (Number(entry) === process.pid) self += ticks;
    }
    return { total, idle, postgres, self };
  } catch {
    return null;
  }
}

export interface CpuShare {
  /** Shares of the whole machine (1 = every core busy) during the window. */
  busy: number;
  postgres: number;
  self: number;
  /** Everything else: other processes on the machine (noise), kernel work not charged to a process,
   *  and PostgreSQL processes that started or ended during the window. */
  other: number;
}

export function startCpuSample(): () => CpuShare | null {
  const start = readSnapshot();
  return () => {
    const end = readSnapshot();
    if (!start || !end) return null;
    const total = end.total - start.total;
    if (total <= 0) return null;
    const busy = (total - (end.idle - start.idle)) / total;
    let postgresTicks = 0;
    for (const [pid, ticks] of end.postgres) {
      const before = start.postgres.get(pid);
      if (before !== undefined) postgresTicks += ticks - before;
    }
    const postgres = postgresTicks / total;
    const self = (end.self - start.self) / total;
    return { busy, postgres, self, other: Math.max(0, busy - postgres - self) };
  };
}
