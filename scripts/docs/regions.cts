/**
 * Generated regions of hand-written Markdown: the text between `<!-- generated: <name> -->` and
 * `<!-- end: <name> -->` belongs to a generator (./index.cts runs them all: `npm run docs`).
 */
import * as fs from 'fs';
import * as path from 'path';

export const ROOT = path.resolve(__dirname, '..', '..');

/** One region's text in one file, as a generator writes it. */
export interface Region {
	/** Relative to the repository root, e.g. `docs/operations.md`. */
	file: string;
	name: string;
	text: string;
}

/** `file`'s text with `region` replaced; throws when the file lacks its markers. */
export function withRegion(current: string, region: Region): string {
	const start = `<!-- generated: ${region.name} -->`;
	const end = `<!-- end: ${region.name} -->`;
	const from = current.indexOf(start);
	const to = current.indexOf(end);
	if (from < 0 || to < from) throw new Error(`${region.file} lacks the markers ${start} … ${end}`);
	return `${current.slice(0, from + start.length)}\n${region.text.trimEnd()}\n${current.slice(to)}`;
}

/** Each file the regions touch: its text now, and its text with them written. */
export function applied(regions: Region[]): Array<{ file: string; current: string; written: string }> {
	const files = [...new Set(regions.map((region) => region.file))];
	return files.map((file) => {
		const current = fs.readFileSync(path.join(ROOT, file), 'utf8');
		const written = regions.filter((region) => region.file === file).reduce(withRegion, current);
		return { file, current, written };
	});
}
