/**
 * What one run's requests share (nodes/Paycashless/transport/run.ts): the credential is read once
 * for the Base URL of all of them, and a read that failed is not kept (the next request reads again).
 */
import { TransportRun } from '../../../nodes/Paycashless/transport';

function contextReading(answers: Array<Error | { baseUrl: string }>) {
	let reads = 0;
	const context = {
		getNode: () => ({ name: 'Paycashless', type: 'n8n-nodes-paycashless.paycashless', parameters: {} }),
		getCredentials: async () => {
			const answer = answers[Math.min(reads, answers.length - 1)];
			reads += 1;
			if (answer instanceof Error) throw answer;
			return answer;
		},
	};
	return { context: context as never, reads: () => reads };
}

describe("a run's Base URL", () => {
	it('is read once for all the requests of the run, side by side or after each other', async () => {
		const { context, reads } = contextReading([{ baseUrl: 'https://api.paycashless.com/' }]);
		const run = new TransportRun(context);
		const urls = await Promise.all(Array.from({ length: 20 }, async () => await run.baseUrlOf()));
		urls.push(await run.baseUrlOf());
		expect(new Set(urls)).toEqual(new Set(['https://api.paycashless.com']));
		expect(reads()).toBe(1);
	});

	it('is read again after a read that failed, and then kept', async () => {
		const { context, reads } = contextReading([new Error('database busy'), { baseUrl: 'https://api.paycashless.com' }]);
		const run = new TransportRun(context);
		await expect(run.baseUrlOf()).rejects.toThrow('database busy');
		await expect(run.baseUrlOf()).resolves.toBe('https://api.paycashless.com');
		await run.baseUrlOf();
		expect(reads()).toBe(2);
	});

	it('is its own in each run: a changed Base URL applies to the next run', async () => {
		const { context } = contextReading([{ baseUrl: 'https://one.example' }, { baseUrl: 'https://two.example' }]);
		expect(await new TransportRun(context).baseUrlOf()).toBe('https://one.example');
		expect(await new TransportRun(context).baseUrlOf()).toBe('https://two.example');
	});
});
