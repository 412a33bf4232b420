import fs from 'node:fs';
import os from 'node:os';
import { serverInfo } from './postgres.js';

export interface MachineInfo {
  nproc: number;
  memoryGiB: number;
  cpuModel: string;
  postgres: string;
  postgresSettings: Record<string, string>;
  node: string;
  /** 1-minute load average when the run started: other work on the machine skews the numbers. */
  loadAverage: number;
}

function cpuModel(): string {
  try {
    const line = fs
      .readFileSync('/proc/cpuinfo', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('model name'));
    if (line) return line.split(':').slice(1).join(':').trim();
  } catch {
    // not Linux
  }
  return os.cpus()[0]?.model ?? 'unknown';
}

export async function machineInfo(databaseUrl: string): Promise<MachineInfo> {
  const server = await serverInfo(databaseUrl);
  return {
    nproc: os.availableParallelism(),
    memoryGiB: os.totalmem() / 1024 ** 3,
    cpuModel: cpuModel(),
    postgres: server.version,
    postgresSettings: server.settings,
    node: process.version,
    loadAverage: os.loadavg()[0]!,
  };
}

export function machineMarkdown(machine: MachineInfo, databaseHost: string): string {
  const settings = Object.entries(machine.postgresSettings)
    .map(([k, v]) => `${k}=${v}`)
    .join(', ');
  return [
    `- CPU: ${machine.cpuModel}, nproc ${machine.nproc}`,
    `- Memory: ${machine.memoryGiB.toFixed(1)} GiB`,
    `- PostgreSQL: ${machine.postgres} at ${databaseHost} (same machine as the benchmark unless the host says otherwise); ${settings}`,
    `- Node: ${machine.node}`,
    `- Load average (1 min) when the run started: ${machine.loadAverage.toFixed(2)} on ${machine.nproc} CPUs`,
  ].join('\n');
}
