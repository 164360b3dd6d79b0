/**
 * Cheap, non-recursive look at a JSON text before anything recursive touches it.
 *
 * An unsigned request may carry a body nested thousands of levels deep: `JSON.parse` copes, but
 * `JSON.stringify` (needed to re-serialise `data` for the signature) and any recursive walk throw
 * a RangeError. This scanner reads the text once, left to right, with a counter instead of a
 * stack: it measures the nesting depth (stopping as soon as the limit is passed) and records
 * where each top-level member's value starts and ends, so the signature can be checked over the
 * exact bytes of `data` as received, without re-serialising anything.
 *
 * It does not validate JSON (JSON.parse does that afterwards); it only has to find brackets and
 * strings correctly.
 */

/** Deepest nesting accepted (the callback object itself is depth 1). Paycashless objects use < 10. */
export const MAX_JSON_DEPTH = 64;

/** Largest body accepted, in bytes. Paycashless callbacks are a few kilobytes. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

export type JsonScan =
	| { ok: true; depth: number; members: Record<string, { start: number; end: number }> }
	| { ok: false; reason: 'too_deep' | 'unbalanced' };

function isSpace(code: number): boolean {
	return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

/**
 * Scans `text`. `members` has, for a top-level object, each member's value as `text.slice(start, end)`
 * (the last one wins for a repeated name, as with JSON.parse); empty for anything else.
 */
export function scanJson(text: string, maxDepth: number = MAX_JSON_DEPTH): JsonScan {
	const members: Record<string, { start: number; end: number }> = {};
	let depth = 0;
	let maxSeen = 0;
	let topLevelObject = false;
	let expectKey = false;
	let currentKey: string | undefined;
	let valueStart = -1;
	let lastNonSpace = -1;
	const first = firstNonSpace(text);

	const closeMember = () => {
		if (currentKey !== undefined && valueStart >= 0 && lastNonSpace >= valueStart) {
			members[currentKey] = { start: valueStart, end: lastNonSpace + 1 };
		}
		currentKey = undefined;
		valueStart = -1;
	};

	for (let i = 0; i < text.length; i++) {
		const code = text.charCodeAt(i);
		if (isSpace(code)) continue;
		if (code === 0x22 /* " */) {
			const start = i;
			i++;
			while (i < text.length) {
				const c = text.charCodeAt(i);
				if (c === 0x5c /* \ */) i += 2;
				else if (c === 0x22) break;
				else i++;
			}
			if (i >= text.length) return { ok: false, reason: 'unbalanced' };
			if (depth === 1 && topLevelObject) {
				if (expectKey) {
					try {
						currentKey = JSON.parse(text.slice(start, i + 1)) as string;
					} catch {
						currentKey = undefined;
					}
					expectKey = false;
				} else if (valueStart < 0 && currentKey !== undefined) {
					valueStart = start;
				}
			}
			lastNonSpace = i;
			continue;
		}
		if (code === 0x7b /* { */ || code === 0x5b /* [ */) {
			if (depth === 0 && code === 0x7b && i === first) {
				topLevelObject = true;
				expectKey = true;
			} else if (depth === 1 && topLevelObject && valueStart < 0 && currentKey !== undefined) {
				valueStart = i;
			}
			depth++;
			if (depth > maxSeen) maxSeen = depth;
			if (depth > maxDepth) return { ok: false, reason: 'too_deep' };
			lastNonSpace = i;
			continue;
		}
		if (code === 0x7d /* } */ || code === 0x5d /* ] */) {
			if (depth === 1 && topLevelObject) closeMember();
			depth--;
			if (depth < 0) return { ok: false, reason: 'unbalanced' };
			lastNonSpace = i;
			continue;
		}
		if (depth === 1 && topLevelObject) {
			if (code === 0x2c /* , */) {
				closeMember();
				expectKey = true;
				continue;
			}
			if (code === 0x3a /* : */) {
				lastNonSpace = i;
				continue;
			}
			if (valueStart < 0 && currentKey !== undefined) valueStart = i;
		}
		lastNonSpace = i;
	}
	if (depth !== 0) return { ok: false, reason: 'unbalanced' };
	return { ok: true, depth: maxSeen, members };
}

function firstNonSpace(text: string): number {
	for (let i = 0; i < text.length; i++) if (!isSpace(text.charCodeAt(i))) return i;
	return -1;
}

/**
 * Depth of an already parsed value, without recursion; stops counting past `maxDepth` (returns
 * `maxDepth + 1`) and after `maxNodes` values (returns Infinity: too big to walk).
 */
export function depthOf(value: unknown, maxDepth: number = MAX_JSON_DEPTH, maxNodes = 1_000_000): number {
	const stack: Array<[unknown, number]> = [[value, 1]];
	let deepest = 0;
	let visited = 0;
	while (stack.length > 0) {
		const [current, depth] = stack.pop() as [unknown, number];
		if (typeof current !== 'object' || current === null) continue;
		if (++visited > maxNodes) return Infinity;
		if (depth > deepest) deepest = depth;
		if (deepest > maxDepth) return deepest;
		for (const child of Object.values(current as Record<string, unknown>)) {
			if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
		}
	}
	return deepest;
}
