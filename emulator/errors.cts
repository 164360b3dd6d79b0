/** Error answers of the emulator, in the body shapes the service documents. */
export type ErrorType =
	| 'api_error'
	| 'authentication_error'
	| 'idempotency_error'
	| 'invalid_request_error';

export class ApiError extends Error {
	constructor(
		readonly status: number,
		readonly body: unknown,
		/** Set for input validation problems: the field at fault (payouts re-shape these). */
		readonly field?: string,
		readonly headers?: Record<string, string>,
	) {
		super(typeof body === 'object' && body !== null && 'error' in body ? String((body as { error: { message: string } }).error.message) : 'error');
	}
}

/** `{ error: { type, code, message, params? } }` */
export function apiError(
	status: number,
	type: ErrorType,
	code: string,
	message: string,
	params?: string[],
	field?: string,
): ApiError {
	const error: Record<string, unknown> = { type, code, message };
	if (params) error.params = params;
	return new ApiError(status, { error }, field);
}

/** A required field is absent: 400 `parameter_missing`. */
export function missingField(field: string, message = `\`${field}\` is required.`): ApiError {
	return apiError(400, 'invalid_request_error', 'parameter_missing', message, [field], field);
}

/** A field is present but its value is not acceptable (422 in bodies, 400 in query strings). */
export function invalidField(field: string, message: string, status = 422): ApiError {
	return apiError(status, 'invalid_request_error', 'parameter_invalid', message, [field], field);
}

export function notFound(what: string, key: string): ApiError {
	return apiError(404, 'invalid_request_error', 'resource_missing', `No ${what} found with ${JSON.stringify(key)}.`);
}

export function duplicateReference(what: string, reference: string): ApiError {
	return apiError(
		409,
		'idempotency_error',
		'duplicate_reference',
		`A ${what} with reference ${JSON.stringify(reference)} already exists; a reference can be used once.`,
	);
}

/** The transition asked for is not possible from the object's current status. */
export function invalidState(message: string): ApiError {
	return apiError(400, 'invalid_request_error', 'invalid_state', message);
}

/** The payout failure form: `{ status: 'failed', message }`. */
export function payoutFailure(status: number, message: string): ApiError {
	return new ApiError(status, { status: 'failed', message });
}
