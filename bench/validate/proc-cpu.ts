// CPU time of a server under load, from /proc (Linux): what the benches divide by the requests
// answered. CPU per request is steadier than req/s on a shared machine, since time stolen by the
// hypervisor is not counted. utime and stime are in USER_HZ ticks, which are 10 ms on Linux.
import { readdirSync, readFileSync } from 'node:fs';

const MS_PER_TICK = 10;

/** utime + stime of /proc/<path>/stat, in ms, and the parent pid. */
function stat(path: string): { ppid: number; cpuMs: number } {
  const text = readFileSync(`/proc/${path}/stat`, 'utf8');
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { ppid: Number(fields[1]), cpuMs: (Number(fields[11]) + Number(fields[12])) * MS_PER_TICK };
}

/** The process and all its descendants. */
function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const { ppid } = stat(entry);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // The process exited meanwhile.
    }
  }
  const tree: number[] = [];
  const pending = [root];
  while (pending.length > 0) {
    const pid = pending.pop() as number;
    tree.push(pid);
    pending.push(...(children.get(pid) ?? []));
  }
  return tree;
}

/** CPU time (ms) of a process tree, all threads (exited ones included), or null without /proc. */
export function treeCpuMs(root: number): number | null {
  try {
    let total = 0;
    for (const pid of processTree(root)) {
      try {
        total += stat(String(pid)).cpuMs;
      } catch {
        // The process exited meanwhile.
      }
    }
    return total;
  } catch {
    return null;
  }
}

/** CPU time (ms) of every live thread of a process tree (or of one process), by thread id. */
export function treeThreadCpuMs(root: number, options: { children?: boolean } = {}): Map<number, number> | null {
  try {
    const out = new Map<number, number>();
    for (const pid of options.children === false ? [root] : processTree(root)) {
      try {
        for (const tid of readdirSync(`/proc/${pid}/task`)) out.set(Number(tid), stat(`${pid}/task/${tid}`).cpuMs);
      } catch {
        // The process exited meanwhile.
      }
    }
    return out;
  } catch {
    return null;
  }
}

/**
 * CPU time (ms) of the machine's PostgreSQL server: every process named `postgres` (the
 * postmaster, its backends and background workers), which are not in a client's process tree.
 * Backends that exit between two readings take their CPU with them; the data planes keep
 * theirs for the whole load. Null without /proc.
 */
export function postgresCpuMs(): number | null {
  try {
    let total = 0;
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== 'postgres') continue;
        total += stat(entry).cpuMs;
      } catch {
        // The process exited meanwhile.
      }
    }
    return total;
  } catch {
    return null;
  }
}
