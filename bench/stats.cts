/**
 * Small statistics for the benchmarks: medians with their spread, and ratios taken pairwise
 * within one repetition (the variants of a repetition run back to back, so machine noise hits
 * them alike; a median of per-repetition ratios is steadier than a ratio of medians).
 */

export interface Summary {
	/** Number of samples. */
	n: number;
	median: number;
	min: number;
	max: number;
}

export function median(values: number[]): number {
	if (values.length === 0) return Number.NaN;
	const sorted = [...values].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function summarize(values: number[]): Summary {
	return {
		n: values.length,
		median: median(values),
		min: values.length ? Math.min(...values) : Number.NaN,
		max: values.length ? Math.max(...values) : Number.NaN,
	};
}

/** Per-repetition ratios `a[i] / b[i]`, summarised. */
export function pairedRatio(a: number[], b: number[]): Summary {
	const n = Math.min(a.length, b.length);
	const ratios: number[] = [];
	for (let i = 0; i < n; i++) ratios.push(a[i] / b[i]);
	return summarize(ratios);
}

/** `1.23 (1.10–1.40)`: median with min–max of the samples. */
export function formatSummary(summary: Summary, digits = 2, unit = ''): string {
	if (!Number.isFinite(summary.median)) return 'n/a';
	const f = (v: number) => `${v.toFixed(digits)}${unit}`;
	if (summary.n < 2) return f(summary.median);
	return `${f(summary.median)} (${f(summary.min)}–${f(summary.max)})`;
}
