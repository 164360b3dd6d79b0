/**
 * Memory of the n8n process tree, read from /proc (Linux): which processes belong to the n8n
 * started by the lab (the supervisor's descendants), their resident set, and their peak resident
 * set since the last reset (VmHWM, reset by writing 5 to /proc/<pid>/clear_refs). A sampler
 * polling VmRSS backs up the peak where clear_refs is not allowed.
 */
import * as fs from 'fs';

export interface ProcInfo {
	pid: number;
	/** `n8n` (the main process), `task-runner`, or the command's base name. */
	role: string;
}

function readFile(file: string): string | undefined {
	try {
		return fs.readFileSync(file, 'utf8');
	} catch {
		return undefined;
	}
}

function parentOf(pid: number): number | undefined {
	const stat = readFile(`/proc/${pid}/stat`);
	if (!stat) return undefined;
	// The command name (2nd field) may hold spaces and parentheses: parse after the last ')'.
	const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
	return Number(fields[1]);
}

function roleOf(pid: number): string {
	const cmdline = (readFile(`/proc/${pid}/cmdline`) ?? '').split('\0').filter(Boolean);
	const text = cmdline.join(' ');
	if (/task-runner|runners?[/-]|@n8n\/task/.test(text)) return 'task-runner';
	if (/supervise\.js/.test(text)) return 'supervisor';
	if (/\bn8n\b/.test(text) && /\bstart\b/.test(text)) return 'n8n';
	return cmdline[1]?.split('/').pop() ?? cmdline[0] ?? String(pid);
}

/** Every live descendant of `rootPid` (not the root itself), with its role. */
export function descendants(rootPid: number): ProcInfo[] {
	const parents = new Map<number, number>();
	for (const name of fs.readdirSync('/proc')) {
		if (!/^\d+$/.test(name)) continue;
		const parent = parentOf(Number(name));
		if (parent !== undefined) parents.set(Number(name), parent);
	}
	const found: ProcInfo[] = [];
	const queue = [rootPid];
	while (queue.length) {
		const current = queue.shift()!;
		for (const [pid, parent] of parents) {
			if (parent === current) {
				found.push({ pid, role: roleOf(pid) });
				queue.push(pid);
			}
		}
	}
	return found;
}

function statusKb(pid: number, key: 'VmRSS' | 'VmHWM'): number | undefined {
	const status = readFile(`/proc/${pid}/status`);
	const match = status ? new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status) : null;
	return match ? Number(match[1]) : undefined;
}

export interface MemoryReading {
	role: string;
	pid: number;
	/** Resident set before the run, MB. */
	beforeMb: number;
	/** Peak resident set during the run, MB. */
	peakMb: number;
}

/**
 * Watches the peak resident set of some processes over one run: `start()` before, `stop()` after.
 */
export class PeakMemory {
	private timer: NodeJS.Timeout | undefined;
	private readonly sampled = new Map<number, number>();
	private readonly before = new Map<number, number>();
	private hwmResettable = true;

	constructor(private readonly processes: ProcInfo[], private readonly intervalMs = 25) {}

	start(): void {
		for (const { pid } of this.processes) {
			this.before.set(pid, statusKb(pid, 'VmRSS') ?? 0);
			this.sampled.set(pid, statusKb(pid, 'VmRSS') ?? 0);
			try {
				fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
			} catch {
				this.hwmResettable = false;
			}
		}
		this.timer = setInterval(() => {
			for (const { pid } of this.processes) {
				const rss = statusKb(pid, 'VmRSS') ?? 0;
				if (rss > (this.sampled.get(pid) ?? 0)) this.sampled.set(pid, rss);
			}
		}, this.intervalMs);
	}

	stop(): MemoryReading[] {
		if (this.timer) clearInterval(this.timer);
		return this.processes.map(({ pid, role }) => {
			const hwm = this.hwmResettable ? statusKb(pid, 'VmHWM') : undefined;
			const peakKb = Math.max(hwm ?? 0, this.sampled.get(pid) ?? 0);
			return { role, pid, beforeMb: (this.before.get(pid) ?? 0) / 1024, peakMb: peakKb / 1024 };
		});
	}
}

/** CPU time (user + system) used so far by these processes, ms (/proc/<pid>/stat, 100 ticks a second). */
export function cpuMs(processes: ProcInfo[]): number {
	let ticks = 0;
	for (const { pid } of processes) {
		const stat = readFile(`/proc/${pid}/stat`);
		if (!stat) continue;
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		// Fields 14 and 15 of stat (utime, stime) are at 11 and 12 after the command name.
		ticks += Number(fields[11]) + Number(fields[12]);
	}
	return ticks * 10;
}

/**
 * CPU time (ms) of each thread of process `pid` so far, summed by thread name (/proc/<pid>/task/*: the
 * main thread carries the process's name; libuv's pool, V8's helpers and native add-ons name theirs).
 */
export function threadCpuMs(pid: number): Record<string, number> {
	const byName: Record<string, number> = {};
	let tasks: string[] = [];
	try {
		tasks = fs.readdirSync(`/proc/${pid}/task`);
	} catch {
		return byName;
	}
	for (const tid of tasks) {
		const stat = readFile(`/proc/${pid}/task/${tid}/stat`);
		if (!stat) continue;
		const name = tid === String(pid) ? 'main thread' : (readFile(`/proc/${pid}/task/${tid}/comm`) ?? '?').trim();
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		byName[name] = (byName[name] ?? 0) + (Number(fields[11]) + Number(fields[12])) * 10;
	}
	return byName;
}
