/** Lists of names typed by a user. */

/** Splits a comma-separated (or newline-separated) list of names (events, statuses); empty entries are dropped. */
export function parseNameList(text: unknown): string[] {
	if (text === undefined || text === null || text === '') return [];
	return String(text)
		.split(/[,\n]/)
		.map((name) => name.trim())
		.filter((name) => name.length > 0);
}
