/**
 * The account's payouts in flight (nodes/Paycashless/money/inFlight.ts), on its own clock: what a
 * period check counts, when the list takes over, and that a process which never reads the list
 * does not keep every payout it made. Through the node: test/unit/node/money.test.cts.
 */
import { inFlight, reserve, unlistedInFlight } from '../../../nodes/Paycashless/money/inFlight';

const HOUR = 3_600_000;

describe('payouts in flight', () => {
	it('counts an entry until a read that started after its create ended; a listed one is left to the list', () => {
		const account = 'account-count';
		const a = reserve(account, { reference: 'a', value: 100, currency: 'NGN' }, 1_000);
		reserve(account, { reference: 'b', value: 200, currency: 'NGN' }, 1_000);
		// Being sent: counted whatever read; not when the list shows it.
		expect(unlistedInFlight(account, new Set(), 500, 2_000).map((entry) => entry.reference)).toEqual(['a', 'b']);
		expect(unlistedInFlight(account, new Set(['b']), 500, 2_000).map((entry) => entry.reference)).toEqual(['a']);
		a.sent(3_000);
		// A read that started before the create ended cannot have shown it: still counted.
		expect(unlistedInFlight(account, new Set(), 2_500, 4_000).map((entry) => entry.reference)).toEqual(['a', 'b']);
		expect(inFlight(account, 'a', 2_500)).toBeDefined();
		// A read that started after it: the list has answered for it (listed or never made).
		expect(inFlight(account, 'a', 3_500)).toBeUndefined();
		expect(unlistedInFlight(account, new Set(), 3_500, 4_000).map((entry) => entry.reference)).toEqual(['b']);
		expect(inFlight(account, 'a')).toBeUndefined();
	});

	it('a definite refusal frees the entry at once, and only its own', () => {
		const account = 'account-release';
		const first = reserve(account, { reference: 'r', value: 1, currency: 'NGN' }, 0);
		const second = reserve(account, { reference: 'r', value: 1, currency: 'NGN' }, 1);
		first.release();
		expect(inFlight(account, 'r')).toBeDefined();
		second.release();
		expect(inFlight(account, 'r')).toBeUndefined();
	});

	it('without any read of the list, a payout sent over an hour ago is dropped; one being sent is kept', () => {
		const account = 'account-prune';
		reserve(account, { reference: 'sent-long-ago', value: 1, currency: 'NGN' }, 0).sent(1_000);
		reserve(account, { reference: 'still-sending', value: 1, currency: 'NGN' }, 0);
		reserve(account, { reference: 'later', value: 1, currency: 'NGN' }, 2 * HOUR);
		expect(inFlight(account, 'sent-long-ago', 0)).toBeUndefined();
		expect(inFlight(account, 'still-sending')).toBeDefined();
		expect(inFlight(account, 'later')).toBeDefined();
	});
});
