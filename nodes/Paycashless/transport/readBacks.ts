/**
 * The read-back of a run's new objects from their list, 100 at a time, instead of one read per
 * object. A create whose answer is short (a payout: `{ id, status, reference }`) is completed with
 * the whole object as Paycashless shows it (create.ts); on its own that is one more request per
 * create. When a node run makes many (the router opens a run of read-backs for it), each create
 * that answered waits here instead, and its item gives its place to the next one; the list of
 * objects created since the run started (`createdAt.gte` a little before it, in Paycashless's
 * seconds) is read newest first, a page of 100 at a time, and every waiting create is matched by
 * its reference and id:
 *
 * - a read starts once a page's worth of creates wait, and at the end of the run for the rest
 *   (the router calls `finish` once every item has been sent);
 * - a read stops at the first page holding an object an earlier read listed (what follows was
 *   read), once no create waits any more, or at the list's end: so a run reads each new object
 *   about once, about one list request per 100 creates;
 * - an object listed before its create answered (answers overlap with reads) is kept by reference
 *   and given to the create when its answer comes;
 * - whatever the list does not show (yet), or every create after a list read failed, is read back
 *   on its own, as without a run (the policy's lookup), a few at a time;
 * - when the run reads the same list anyway (the period limits' reads, money/periodList.ts, `offer`),
 *   what those reads show is taken from them, and the run reads nothing of its own before `finish`.
 *
 * Nothing here sends a create or decides an item's outcome: a create that answered stays created
 * whether or not its read-back works (create.ts: a failed read-back is a note, never an error).
 */
import type { IDataObject } from 'n8n-workflow';

import type { Call, FoundByReference, PaycashlessPage, PaycashlessRequest } from './types';

/** Objects per list page (the largest page Paycashless serves). */
const PAGE_SIZE = 100;

/**
 * How long before the run's start (n8n's clock) the list starts, in seconds: a payout's
 * `createdAt` is Paycashless's clock, which may be a little behind. One created outside it is read
 * back on its own.
 */
const CLOCK_MARGIN_SECONDS = 60;

/** What a run of read-backs needs from the transport (index.ts), passed in to keep imports one way. */
export interface ReadBackIo {
	page(call: Call, list: { path: string; qs: IDataObject }, pageSize: number, cursor?: string): Promise<PaycashlessPage>;
	/** One object read back by its lookup: its answer, or `null` when the read failed. */
	readOne(call: Call, lookup: PaycashlessRequest): Promise<IDataObject | null>;
}

export interface ReadBackRunOptions {
	/** n8n's clock (ms) when the run started. */
	startedAt: number;
	/** Called when a create of this item waits for its read-back: the item may give its place. */
	onWaiting(itemIndex: number | undefined): void;
	/** Read-backs on their own at once, at the end. */
	concurrency: number;
}

interface Waiting {
	reference: string;
	id?: string;
	call: Call;
	policy: FoundByReference;
	resolve(record: IDataObject | null): void;
}

/** One node run's read-backs. */
export class ReadBackRun {
	private readonly since: number;

	private readonly waiting = new Map<string, Waiting>();

	/** Objects listed before their create answered, by reference. */
	private readonly listed = new Map<string, IDataObject>();

	/** Ids of every object a read listed. */
	private readonly seen = new Set<string>();

	private reading?: Promise<void>;

	/** A list read failed: the rest are read back on their own. */
	private broken = false;

	private finished = false;

	/** Another read of the list offers what it showed: this run waits for `finish` to read its own. */
	private fed = false;

	/** Requests of this run, for the log. */
	private pages = 0;

	private single = 0;

	private fromList = 0;

	constructor(
		private readonly io: ReadBackIo,
		private readonly options: ReadBackRunOptions,
	) {
		this.since = Math.floor(options.startedAt / 1000) - CLOCK_MARGIN_SECONDS;
	}

	/**
	 * The whole object of a create that answered short (`answer`), from the list when it shows it,
	 * else read on its own; `null` when neither could read it.
	 */
	async readBack(call: Call, policy: FoundByReference, reference: string, answer: IDataObject): Promise<IDataObject | null> {
		const id = typeof answer.id === 'string' && answer.id !== '' ? answer.id : undefined;
		if (!policy.listedSince || this.broken || this.finished || this.waiting.has(reference)) return await this.readOne(call, policy, reference);
		const listed = this.listed.get(reference);
		if (listed) {
			this.listed.delete(reference);
			if (id === undefined || listed.id === id) {
				this.fromList += 1;
				return listed;
			}
		}
		const record = new Promise<IDataObject | null>((resolve) => {
			this.waiting.set(reference, { reference, id, call, policy, resolve });
		});
		this.options.onWaiting(call.itemIndex);
		this.readWhenAPageWaits(call, policy);
		return await record;
	}

	/**
	 * Every item has been sent: reads the list once more for the creates still waiting, then reads
	 * what it did not show on its own. Resolves when every create has its read-back.
	 */
	async finish(): Promise<void> {
		this.finished = true;
		if (this.reading) await this.reading;
		const first = this.waiting.values().next().value as Waiting | undefined;
		if (first && !this.broken) await this.read(first.call, first.policy);
		const rest = [...this.waiting.values()];
		this.waiting.clear();
		let next = 0;
		const worker = async () => {
			while (next < rest.length) {
				const waiting = rest[next++];
				waiting.resolve(await this.readOne(waiting.call, waiting.policy, waiting.reference));
			}
		};
		await Promise.all(Array.from({ length: Math.min(Math.max(1, this.options.concurrency), rest.length) }, worker));
		if (first) {
			first.call.context.logger.debug(`Paycashless: ${this.fromList} read back from ${this.pages} list pages, ${this.single} on their own`, {
				fromList: this.fromList,
				pages: this.pages,
				single: this.single,
			});
		}
	}

	private async readOne(call: Call, policy: FoundByReference, reference: string): Promise<IDataObject | null> {
		this.single += 1;
		return await this.io.readOne(call, policy.lookup(reference));
	}

	/**
	 * Records another read of the list showed (newest first, contiguous from the list's top, as this
	 * run's own reads are): each waiting create among them is given its object.
	 */
	offer(records: IDataObject[]): void {
		if (this.finished || this.broken) return;
		this.fed = true;
		for (const record of records) this.take(record);
	}

	/** A listed record: to the create that waits for it, or kept for one that has not answered. Whether an earlier read listed it. */
	private take(record: IDataObject): boolean {
		if (typeof record.id === 'string') {
			if (this.seen.has(record.id)) return true;
			this.seen.add(record.id);
		}
		if (typeof record.reference !== 'string') return false;
		const waiting = this.waiting.get(record.reference);
		if (waiting && (waiting.id === undefined || waiting.id === record.id)) {
			this.waiting.delete(record.reference);
			this.fromList += 1;
			waiting.resolve(record);
		} else if (!waiting) {
			this.listed.set(record.reference, record);
		}
		return false;
	}

	private readWhenAPageWaits(call: Call, policy: FoundByReference): void {
		if (this.reading || this.finished || this.broken || this.fed || this.waiting.size < PAGE_SIZE) return;
		this.reading = this.read(call, policy).finally(() => {
			this.reading = undefined;
			const next = this.waiting.values().next().value as Waiting | undefined;
			if (next) this.readWhenAPageWaits(next.call, next.policy);
		});
	}

	/** Reads the list newest first until what follows was read before, or nothing waits (never throws). */
	private async read(call: Call, policy: FoundByReference): Promise<void> {
		const listedSince = policy.listedSince;
		if (!listedSince) return;
		const list = { path: listedSince.path, qs: { [listedSince.query]: this.since } };
		const cursors = new Set<string>();
		let cursor: string | undefined;
		try {
			for (;;) {
				const page = await this.io.page(call, list, PAGE_SIZE, cursor);
				this.pages += 1;
				let readBefore = false;
				for (const record of page.data) if (this.take(record)) readBefore = true;
				if (readBefore || this.waiting.size === 0 || !page.hasMore || page.cursor === undefined || cursors.has(page.cursor)) return;
				cursors.add(page.cursor);
				cursor = page.cursor;
			}
		} catch (error) {
			this.broken = true;
			call.context.logger.warn(`Paycashless: the list of new ${policy.object}s could not be read; each is read back on its own`, {
				error: (error as Error).message,
			});
		}
	}
}
