import fs from 'node:fs';

/** Linux CPU accounting (clock ticks) to tell how busy the machine was and who kept it busy. */
interface Snapshot {
  total: number;
  idle: number;
  /** CPU ticks of each live postgres process, by pid: only processes alive at both ends count. */
  postgres: Map<string, number>;
  self: number;
}

/** One process's CPU time so far (user + system clock ticks), with what tells who it is. */
export interface ProcessTicks {
  pid: string;
  parent: number;
  comm: string;
  ticks: number;
}

/** The machine's CPU ticks so far (all and idle) and every live process's, from /proc (Linux). */
export function readProcTicks(): { total: number; idle: number; processes: ProcessTicks[] } {
  const cpu = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const processes: ProcessTicks[] = [];
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue;
    }
    const close = stat.lastIndexOf(')');
    const fields = stat.slice(close + 2).split(' ');
    processes.push({
      pid,
      parent: Number(fields[1]),
      comm: stat.slice(stat.indexOf('(') + 1, close),
      ticks: Number(fields[11]) + Number(fields[12]),
    });
  }
  return { total: cpu.slice(0, 8).reduce((a, b) => a + b, 0), idle: cpu[3]! + cpu[4]!, processes };
}

function readSnapshot(): Snapshot | null {
  try {
    const { total, idle, processes } = readProcTicks();
    const postgres = new Map(processes.filter((p) => p.comm === 'postgres').map((p) => [p.pid, p.ticks]));
    const self = processes.find((p) => Number(p.pid) === process.pid)?.ticks ?? 0;
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
