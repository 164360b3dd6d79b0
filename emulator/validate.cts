/**
 * Input checks for request bodies and query strings. Every check names the field at fault;
 * nothing here changes state, so handlers validate everything before they store anything.
 */
import { ApiError, invalidField, missingField } from './errors.cjs';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isValidEmail(value: string): boolean {
	return EMAIL.test(value);
}

function isHttpUrl(value: string): boolean {
	try {
		const url = new URL(value);
		return url.protocol === 'http:' || url.protocol === 'https:';
	} catch {
		return false;
	}
}

/** The parsed JSON body as an object, or a 400 naming what is wrong. */
export function bodyObject(body: unknown, rawBody: string): Record<string, unknown> {
	if (rawBody.trim() === '') throw missingField('body', 'The request needs a JSON object body.');
	if (!isPlainObject(body)) throw invalidField('body', 'The request body must be a JSON object.', 400);
	return body;
}

type Opts = { required?: boolean };

/** Reads typed fields from one JSON object; errors carry the full dotted path. */
export class Fields {
	constructor(
		readonly source: Record<string, unknown>,
		private readonly prefix = '',
		private readonly status = 422,
	) {}

	path(name: string): string {
		return this.prefix ? `${this.prefix}.${name}` : name;
	}

	private present(name: string, opts: Opts): boolean {
		const value = this.source[name];
		if (value === undefined || value === null || value === '') {
			if (opts.required) throw missingField(this.path(name));
			return false;
		}
		return true;
	}

	invalid(name: string, message: string): ApiError {
		return invalidField(this.path(name), `\`${this.path(name)}\` ${message}`, this.status);
	}

	string(name: string, opts: Opts & { maxLength?: number } = {}): string | undefined {
		if (!this.present(name, opts)) return undefined;
		const value = this.source[name];
		if (typeof value !== 'string') throw this.invalid(name, 'must be a string.');
		if (opts.maxLength !== undefined && value.length > opts.maxLength) {
			throw this.invalid(name, `must be at most ${opts.maxLength} characters long.`);
		}
		return value;
	}

	/** An integer in [min, max]. */
	integer(name: string, opts: Opts & { min?: number; max?: number } = {}): number | undefined {
		if (!this.present(name, opts)) return undefined;
		const value = this.source[name];
		if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw this.invalid(name, 'must be an integer.');
		if (opts.min !== undefined && value < opts.min) throw this.invalid(name, `must be at least ${opts.min}.`);
		if (opts.max !== undefined && value > opts.max) throw this.invalid(name, `must be at most ${opts.max}.`);
		return value;
	}

	/** A positive integer amount in the smallest currency unit. */
	amount(name: string, opts: Opts = {}): number | undefined {
		if (!this.present(name, opts)) return undefined;
		const value = this.source[name];
		if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
			throw this.invalid(name, 'must be a positive integer in the smallest currency unit (kobo, cents).');
		}
		return value;
	}

	number(name: string, opts: Opts & { min?: number; max?: number } = {}): number | undefined {
		if (!this.present(name, opts)) return undefined;
		const value = this.source[name];
		if (typeof value !== 'number' || !Number.isFinite(value)) throw this.invalid(name, 'must be a number.');
		if (opts.min !== undefined && value < opts.min) throw this.invalid(name, `must be at least ${opts.min}.`);
		if (opts.max !== undefined && value > opts.max) throw this.invalid(name, `must be at most ${opts.max}.`);
		return value;
	}

	boolean(name: string, opts: Opts = {}): boolean | undefined {
		if (!this.present(name, opts)) return undefined;
		const value = this.source[name];
		if (typeof value !== 'boolean') throw this.invalid(name, 'must be true or false.');
		return value;
	}

	oneOf<T extends string>(name: string, allowed: readonly T[], opts: Opts = {}): T | undefined {
		const value = this.string(name, opts);
		if (value === undefined) return undefined;
		if (!allowed.includes(value as T)) throw this.invalid(name, `must be one of ${allowed.join(', ')}.`);
		return value as T;
	}

	email(name: string, opts: Opts = {}): string | undefined {
		const value = this.string(name, opts);
		if (value !== undefined && !isValidEmail(value)) throw this.invalid(name, 'must be a valid email address.');
		return value;
	}

	url(name: string, opts: Opts = {}): string | undefined {
		const value = this.string(name, opts);
		if (value !== undefined && !isHttpUrl(value)) throw this.invalid(name, 'must be an http(s) URL.');
		return value;
	}

	/** `YYYY-MM-DD` */
	date(name: string, opts: Opts = {}): string | undefined {
		const value = this.string(name, opts);
		if (value !== undefined && (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(value)))) {
			throw this.invalid(name, 'must be a date in the form YYYY-MM-DD.');
		}
		return value;
	}

	object(name: string, opts: Opts = {}): Fields | undefined {
		if (!this.present(name, opts)) return undefined;
		const value = this.source[name];
		if (!isPlainObject(value)) throw this.invalid(name, 'must be an object.');
		return new Fields(value, this.path(name), this.status);
	}

	/** A free-form key/value object. */
	metadata(name: string): Record<string, unknown> | undefined {
		return this.object(name)?.source;
	}

	/** An array whose elements are objects, each read with its own `Fields`. */
	objects(name: string, opts: Opts & { minItems?: number } = {}): Fields[] | undefined {
		const list = this.array(name, opts);
		if (list === undefined) return undefined;
		if (opts.minItems !== undefined && list.length < opts.minItems) {
			throw this.invalid(name, `must have at least ${opts.minItems} element(s).`);
		}
		return list.map((element, index) => {
			const path = `${this.path(name)}[${index}]`;
			if (!isPlainObject(element)) throw invalidField(path, `\`${path}\` must be an object.`, this.status);
			return new Fields(element, path, this.status);
		});
	}

	strings(name: string, opts: Opts = {}): string[] | undefined {
		const list = this.array(name, opts);
		if (list === undefined) return undefined;
		list.forEach((element, index) => {
			if (typeof element !== 'string' || !element) {
				const path = `${this.path(name)}[${index}]`;
				throw invalidField(path, `\`${path}\` must be a non-empty string.`, this.status);
			}
		});
		return list as string[];
	}

	private array(name: string, opts: Opts): unknown[] | undefined {
		if (!this.present(name, opts)) return undefined;
		const value = this.source[name];
		if (!Array.isArray(value)) throw this.invalid(name, 'must be an array.');
		return value;
	}
}
