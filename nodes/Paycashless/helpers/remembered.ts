/**
 * A read made once and remembered for a run (the credential's Base URL, its account key): later
 * calls get the same answer; a read that fails is not kept, so the next call reads again.
 */
export function remembered<T>(read: () => Promise<T>): () => Promise<T> {
	let kept: Promise<T> | undefined;
	return async () => {
		if (!kept) {
			const reading = read();
			kept = reading;
			reading.catch(() => {
				if (kept === reading) kept = undefined;
			});
		}
		return await kept;
	};
}
