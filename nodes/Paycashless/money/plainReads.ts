/**
 * A field whose expression only reads a value of the input, such as `{{ $json.reference }}`,
 * `{{ $('Staff Rows').item.json.name }}`, `{{ Number($json.amountNaira) }}` or
 * `Salary {{ $json.reference }}`, read through n8n's own data proxy (`getWorkflowDataProxy`, the
 * object n8n hands its expression engine) instead of through the engine. In n8n 2.x every evaluation
 * crosses into an isolate (about half a millisecond); a payroll of 1,000 rows reads some 15 such
 * fields a row. The value is n8n's: the same proxy resolves `$json` and `$('…').item` (paired items
 * and all); only the path is walked here.
 *
 * Anything else goes to n8n: a call, an operator, `$now`, a method, a value that is not a string,
 * number or boolean (an object, undefined, null, NaN), a step through something that is not an
 * object (n8n then raises its own error), a proxy that throws. A parameter is read here only when
 * every expression in it can be; then it is what `getNodeParameter` returns for it (n8n resolves an
 * object's leaves one by one and checks no types on this node's fields: they declare no `validateType`).
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

/** Not read here: n8n refuses `.constructor` in an expression; the others reach what is not data. */
const NOT_DATA = new Set(['constructor', '__proto__', 'prototype']);

interface Path {
	/** `$('NAME').item.json` when set; `$json` otherwise. */
	node?: string;
	/** The keys read one after the other (`.key`, `?.key`, `[0]`, `["key"]` alike: see `walk`). */
	steps: string[];
	/** Wrapped in `Number(…)`. */
	number: boolean;
}

const IDENT = '[A-Za-z_$][A-Za-z0-9_$]*';
const STEP = new RegExp(`^(?:\\??\\.(${IDENT})|\\[(\\d+)\\]|\\[(?:"([^"\\\\]*)"|'([^'\\\\]*)')\\])`);
const ROOT = /^(?:\$json|\$\(\s*(?:'([^'\\]*)'|"([^"\\]*)")\s*\)\.item\.json)/;

/** The path of one `{{ … }}`'s inside, or undefined when it is anything more than a read. */
function pathOf(inside: string): Path | undefined {
	let text = inside.trim();
	const number = /^Number\(.*\)$/s.test(text);
	if (number) text = text.slice('Number('.length, -1).trim();
	const root = ROOT.exec(text);
	if (!root) return undefined;
	const path: Path = { node: root[1] ?? root[2], steps: [], number };
	text = text.slice(root[0].length);
	while (text !== '') {
		const step = STEP.exec(text);
		if (!step) return undefined;
		const key = step[1] ?? step[2] ?? step[3] ?? step[4];
		if (NOT_DATA.has(key)) return undefined;
		path.steps.push(key);
		text = text.slice(step[0].length);
	}
	return path;
}

/** What reading stops with: the parameter goes to n8n. */
const TO_N8N = Symbol('to n8n');
type Read = string | number | boolean | typeof TO_N8N;

function walk(proxy: IDataObject, path: Path): Read {
	let value: unknown;
	try {
		if (path.node === undefined) value = proxy.$json;
		else {
			const node = (proxy.$ as (name: string) => { item?: { json?: unknown } })(path.node);
			value = node.item?.json;
		}
		for (const key of path.steps) {
			// Through undefined or null n8n says `?.` gives undefined and `.` throws: n8n says it.
			if (typeof value !== 'object' || value === null) return TO_N8N;
			value = (value as Record<string, unknown>)[key];
		}
	} catch {
		return TO_N8N;
	}
	if (path.number && (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')) value = Number(value);
	if (typeof value === 'number') return Number.isNaN(value) ? TO_N8N : value;
	if (typeof value === 'string' || typeof value === 'boolean') return value;
	return TO_N8N;
}

const EXPRESSION = /\{\{([^{}]*)\}\}/g;

/** An expression's value (the stored string, with its leading `=`), or TO_N8N. */
function readExpression(stored: string, proxy: () => IDataObject): Read {
	const body = stored.slice(1);
	const parts: Array<string | Path> = [];
	let at = 0;
	for (const match of body.matchAll(EXPRESSION)) {
		const literal = body.slice(at, match.index);
		if (/[{}\\]/.test(literal)) return TO_N8N;
		if (literal !== '') parts.push(literal);
		const path = pathOf(match[1]);
		if (!path) return TO_N8N;
		parts.push(path);
		at = (match.index ?? 0) + match[0].length;
	}
	const rest = body.slice(at);
	if (/[{}\\]/.test(rest)) return TO_N8N;
	if (rest !== '') parts.push(rest);
	if (!parts.some((part) => typeof part !== 'string')) return TO_N8N;
	// One read alone: its value as it is. Read among text: joined, strings only.
	if (parts.length === 1) return walk(proxy(), parts[0] as Path);
	let joined = '';
	for (const part of parts) {
		const value = typeof part === 'string' ? part : walk(proxy(), part);
		if (typeof value !== 'string') return TO_N8N;
		joined += value;
	}
	return joined;
}

/** A stored parameter with every expression in it read, or TO_N8N. */
function resolve(stored: unknown, proxy: () => IDataObject): unknown {
	if (typeof stored === 'string') return stored.startsWith('=') ? readExpression(stored, proxy) : stored;
	if (Array.isArray(stored)) {
		const out: unknown[] = [];
		for (const inner of stored) {
			const value = resolve(inner, proxy);
			if (value === TO_N8N) return TO_N8N;
			out.push(value);
		}
		return out;
	}
	if (typeof stored === 'object' && stored !== null) {
		const out: Record<string, unknown> = {};
		for (const [key, inner] of Object.entries(stored)) {
			const value = resolve(inner, proxy);
			if (value === TO_N8N) return TO_N8N;
			out[key] = value;
		}
		return out;
	}
	return stored;
}

/**
 * Parameter `name` of item `i` as `getNodeParameter` would give it, read on the proxy of item `i`,
 * or `{ read: false }` when n8n must evaluate it. `stored` is the node's parameters as stored.
 */
export function readPlainParameter(
	this: IExecuteFunctions,
	stored: IDataObject,
	name: string,
	proxyOf: () => IDataObject,
): { read: true; value: unknown } | { read: false } {
	if (name.includes('.') || !(name in stored) || stored[name] === undefined) return { read: false };
	if (typeof this.getWorkflowDataProxy !== 'function') return { read: false };
	const value = resolve(stored[name], proxyOf);
	return value === TO_N8N ? { read: false } : { read: true, value };
}
