/** Small deterministic pseudo-random helpers (mulberry32): same seed, same sequence. */
export type Rng = () => number;

/** A generator of floats in [0, 1) from a 32-bit seed. */
export function mulberry32(seed: number): Rng {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/** Integer in [min, max], both inclusive. */
export function randInt(rng: Rng, min: number, max: number): number {
	return min + Math.floor(rng() * (max - min + 1));
}

export function pick<T>(rng: Rng, items: readonly T[]): T {
	return items[Math.floor(rng() * items.length)];
}

/** Picks from `[value, weight]` pairs. */
export function pickWeighted<T>(rng: Rng, choices: ReadonlyArray<readonly [T, number]>): T {
	const total = choices.reduce((sum, [, weight]) => sum + weight, 0);
	let roll = rng() * total;
	for (const [value, weight] of choices) {
		roll -= weight;
		if (roll < 0) return value;
	}
	return choices[choices.length - 1][0];
}

const BYTE_HEX = Array.from({ length: 256 }, (_, n) => n.toString(16).padStart(2, '0'));

/**
 * Returns `text` after making V8 store it as one flat string. A string built by concatenation
 * is a tree of pieces until first read; when 100,000 records keep such strings, the trees are
 * what the garbage collector spends its time on (seeding got 3x faster with this).
 */
export function flat(text: string): string {
	text.charCodeAt(0);
	return text;
}

/** `length` hex characters (4 bytes per draw). */
export function randomHex(rng: Rng, length: number): string {
	let out = '';
	while (out.length < length) {
		const n = Math.floor(rng() * 0x100000000);
		out += BYTE_HEX[n >>> 24] + BYTE_HEX[(n >>> 16) & 255] + BYTE_HEX[(n >>> 8) & 255] + BYTE_HEX[n & 255];
	}
	return flat(out.length === length ? out : out.slice(0, length));
}

/** `length` decimal digits, 9 per draw. */
export function randomDigits(rng: Rng, length: number): string {
	let out = '';
	while (out.length < length) out += String(Math.floor(rng() * 1e9)).padStart(9, '0');
	return flat(out.slice(0, length));
}

/** FNV-1a 32-bit hash of a string: derives stable values (names, ids) from inputs. */
export function hash32(text: string): number {
	let h = 0x811c9dc5;
	for (let i = 0; i < text.length; i++) {
		h ^= text.charCodeAt(i);
		h = Math.imul(h, 0x01000193) >>> 0;
	}
	return h >>> 0;
}
