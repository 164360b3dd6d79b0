/**
 * CPU profiles of the running n8n's main process, for the profile scripts (profileCreates.cts,
 * profileCallbacks.cts): the inspector is opened with SIGUSR1 (Node's default port, 9229), the
 * profile taken over the Chrome DevTools Protocol, then summarised as self time by function and by
 * file, and as time by what the code is doing (categories matched against the whole stack).
 */
import * as net from 'net';

interface ProfileNode {
	id: number;
	callFrame: { functionName: string; url: string; lineNumber: number };
	hitCount?: number;
	children?: number[];
}

export interface Profile {
	nodes: ProfileNode[];
	startTime: number;
	endTime: number;
	samples?: number[];
	timeDeltas?: number[];
}

interface DevTools {
	send(method: string, params?: object): Promise<unknown>;
	close(): void;
}

/** One DevTools Protocol session over the inspector's WebSocket. */
async function devtools(port: number): Promise<DevTools> {
	interface Socket {
		once(event: 'open' | 'error', listener: (value?: unknown) => void): void;
		on(event: 'message', listener: (data: unknown) => void): void;
		send(data: string): void;
		close(): void;
	}
	// `ws` comes with n8n's tooling (no types installed); Node 20 has no WebSocket of its own.
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const WebSocket = require('ws') as new (url: string) => Socket;
	const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as Array<{ webSocketDebuggerUrl: string }>;
	const socket = new WebSocket(targets[0].webSocketDebuggerUrl);
	await new Promise((resolve, reject) => {
		socket.once('open', resolve);
		socket.once('error', reject);
	});
	let nextId = 1;
	const waiting = new Map<number, (value: unknown) => void>();
	socket.on('message', (data) => {
		const message = JSON.parse(String(data)) as { id?: number; result?: unknown };
		if (message.id !== undefined) waiting.get(message.id)?.(message.result);
	});
	return {
		send: (method, params = {}) =>
			new Promise((resolve) => {
				const id = nextId++;
				waiting.set(id, resolve);
				socket.send(JSON.stringify({ id, method, params }));
			}),
		close: () => socket.close(),
	};
}

function portInUse(port: number): Promise<boolean> {
	return new Promise((resolve) => {
		const socket = net.connect(port, '127.0.0.1');
		socket.once('connect', () => {
			socket.destroy();
			resolve(true);
		});
		socket.once('error', () => resolve(false));
	});
}

async function waitForInspector(port: number): Promise<void> {
	for (let i = 0; i < 50; i++) {
		try {
			await fetch(`http://127.0.0.1:${port}/json/version`);
			return;
		} catch {
			await new Promise((resolve) => setTimeout(resolve, 200));
		}
	}
	throw new Error(`no inspector on port ${port}`);
}

export interface Profiler {
	/** Profiles `work` (sampling every 500 µs) and returns the profile with what `work` returned. */
	profile<T>(work: () => Promise<T>): Promise<{ profile: Profile; result: T }>;
	close(): void;
}

/** Opens the inspector of process `pid` (a Node process on this machine) and connects to it. */
export async function openProfiler(pid: number, port = 9229): Promise<Profiler> {
	// Another process (another session's profile) may hold the port: then n8n's inspector could not
	// open, and the profile would be of that process.
	if (await portInUse(port)) throw new Error(`port ${port} is already in use: another inspector is open on this machine`);
	process.kill(pid, 'SIGUSR1');
	await waitForInspector(port);
	const session = await devtools(port);
	await session.send('Profiler.enable');
	await session.send('Profiler.setSamplingInterval', { interval: 500 });
	return {
		async profile(work) {
			await session.send('Profiler.start');
			const result = await work();
			const { profile } = (await session.send('Profiler.stop')) as { profile: Profile };
			return { profile, result };
		},
		close: () => session.close(),
	};
}

/**
 * A file of the package as n8n loads it (`…/nodes/node_modules/n8n-nodes-paycashless/dist/…`); not the
 * folders that merely carry the package's name, such as the n8n installs under ~/.cache/n8n-nodes-paycashless.
 */
export const PACKAGE_FILE = /node_modules\/n8n-nodes-paycashless\/dist\//;

const fileOf = (url: string) => url.replace(/^.*node_modules\//, '').replace(/^file:\/\//, '') || '(native)';

/** Self time (ms) by function and by file; `package` = the Paycashless package's own files. */
export function summarise(profile: Profile): { totalMs: number; byFunction: Array<[string, number]>; byFile: Array<[string, number]> } {
	const byId = new Map(profile.nodes.map((node) => [node.id, node]));
	const selfMs = new Map<number, number>();
	const samples = profile.samples ?? [];
	const deltas = profile.timeDeltas ?? [];
	for (let i = 0; i < samples.length; i++) selfMs.set(samples[i], (selfMs.get(samples[i]) ?? 0) + (deltas[i] ?? 0) / 1000);
	const byFunction = new Map<string, number>();
	const byFile = new Map<string, number>();
	for (const [id, ms] of selfMs) {
		const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
		const file = fileOf(url);
		const key = `${functionName || '(anonymous)'} ${file}:${lineNumber + 1}`;
		byFunction.set(key, (byFunction.get(key) ?? 0) + ms);
		const pkg = PACKAGE_FILE.test(url) ? `package: ${url.replace(/^.*n8n-nodes-paycashless\/dist\//, '')}` : file.split('/').slice(0, 2).join('/');
		byFile.set(pkg, (byFile.get(pkg) ?? 0) + ms);
	}
	const top = (map: Map<string, number>, n: number) => [...map].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, v]) => [k, Math.round(v)] as [string, number]);
	return { totalMs: Math.round((profile.endTime - profile.startTime) / 1000), byFunction: top(byFunction, 40), byFile: top(byFile, 30) };
}

export interface Category {
	name: string;
	/** Matched against `functionName url` of every frame of a sample's stack. */
	pattern: RegExp;
}

/**
 * Time (ms) by category: each sample goes to the first category (in the order given) that any frame
 * of its stack matches, else to `other`; `(idle)` and `(garbage collector)` leaves are their own.
 */
export function byCategory(profile: Profile, categories: readonly Category[]): Record<string, number> {
	const parent = new Map<number, number>();
	for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
	const byId = new Map(profile.nodes.map((node) => [node.id, node]));
	const categoryOf = new Map<number, string>();
	const classify = (leaf: number): string => {
		const cached = categoryOf.get(leaf);
		if (cached) return cached;
		const frames: string[] = [];
		for (let id: number | undefined = leaf; id !== undefined; id = parent.get(id)) {
			const { functionName, url } = byId.get(id)!.callFrame;
			frames.push(`${functionName} ${url}`);
		}
		const leafName = byId.get(leaf)!.callFrame.functionName;
		let name = 'other';
		if (leafName === '(idle)') name = 'idle';
		else if (leafName === '(garbage collector)') name = 'garbage collection';
		else name = categories.find((category) => frames.some((frame) => category.pattern.test(frame)))?.name ?? 'other';
		categoryOf.set(leaf, name);
		return name;
	};
	const totals: Record<string, number> = {};
	const samples = profile.samples ?? [];
	const deltas = profile.timeDeltas ?? [];
	for (let i = 0; i < samples.length; i++) {
		const name = classify(samples[i]);
		totals[name] = (totals[name] ?? 0) + (deltas[i] ?? 0) / 1000;
	}
	return totals;
}

/**
 * Inclusive time (ms) of the functions whose `functionName url` matches `pattern`: a sample counts for
 * every distinct such function on its stack (so nested ones overlap). The top `count`.
 */
export function inclusive(profile: Profile, pattern: RegExp, count = 30): Array<[string, number]> {
	const parent = new Map<number, number>();
	for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
	const byId = new Map(profile.nodes.map((node) => [node.id, node]));
	const totals = new Map<string, number>();
	const samples = profile.samples ?? [];
	const deltas = profile.timeDeltas ?? [];
	for (let i = 0; i < samples.length; i++) {
		const seen = new Set<string>();
		for (let id: number | undefined = samples[i]; id !== undefined; id = parent.get(id)) {
			const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
			if (!pattern.test(`${functionName} ${url}`)) continue;
			seen.add(`${functionName || '(anonymous)'} ${PACKAGE_FILE.test(url) ? url.replace(/^.*n8n-nodes-paycashless\/dist\//, '') : fileOf(url)}:${lineNumber + 1}`);
		}
		for (const key of seen) totals.set(key, (totals.get(key) ?? 0) + (deltas[i] ?? 0) / 1000);
	}
	return [...totals].sort((a, b) => b[1] - a[1]).slice(0, count).map(([k, v]) => [k, Math.round(v)]);
}
