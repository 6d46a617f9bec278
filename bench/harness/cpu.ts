// CPU time the server process and its PostgreSQL backends spend, read from /proc. Requests/s depend
// on whatever else runs on the machine; CPU milliseconds per request much less so, and they show
// where the time goes (Node or the database).
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

let ticksPerSecond = 100;
try {
  ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
} catch {
  // keep the Linux default
}

/** User + system CPU seconds of a process; 0 when it is gone or /proc is missing. */
function processCpu(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start at state: utime and stime are 12 and 13 on.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
  } catch {
    return 0;
  }
}

/** Backend processes serving `database` ("postgres: ... <user> <database> <client> ..."). */
function backendsOf(database: string): number[] {
  const pids: number[] = [];
  let entries: string[] = [];
  try {
    entries = readdirSync('/proc');
  } catch {
    return pids;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (cmdline.startsWith('postgres: ') && cmdline.includes(` ${database} `)) pids.push(Number(entry));
    } catch {
      // exited meanwhile
    }
  }
  return pids;
}

export interface CpuSample {
  server: number;
  backends: Map<number, number>;
}

export function sampleCpu(serverPid: number, database?: string): CpuSample {
  const backends = new Map<number, number>();
  if (database) for (const pid of backendsOf(database)) backends.set(pid, processCpu(pid));
  return { server: processCpu(serverPid), backends };
}

/** CPU seconds between two samples; backends that started in between count from zero. */
export function cpuBetween(before: CpuSample, after: CpuSample): { server: number; database: number } {
  let database = 0;
  for (const [pid, seconds] of after.backends) database += seconds - (before.backends.get(pid) ?? 0);
  return { server: after.server - before.server, database };
}

/** Busy and total CPU seconds of the whole machine so far (all CPUs), from /proc/stat. */
export function machineCpu(): { busy: number; total: number } {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
    const [user, nice, system, idle, iowait, irq, softirq, steal] = line.trim().split(/\s+/).slice(1, 9).map(Number) as number[];
    const busy = user! + nice! + system! + irq! + softirq! + steal!;
    return { busy: busy / ticksPerSecond, total: (busy + idle! + iowait!) / ticksPerSecond };
  } catch {
    return { busy: 0, total: 0 };
  }
}

/** Share (0..1) of the machine's CPU busy during the next `ms`. */
export async function busyShare(ms: number): Promise<number> {
  const a = machineCpu();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const b = machineCpu();
  return b.total > a.total ? (b.busy - a.busy) / (b.total - a.total) : 0;
}
