// Typed errors. Every failure the client reports is an AtriumError; HTTP answers become ApiError
// subclasses chosen by status and the server's stable `code` (docs/errors.md), so an application
// can react as spec 7.3 asks: SlotSoldOutError → re-fetch availability, ReservationExpiredError →
// create a new reservation, UnauthorizedError → replace the token, and so on.

export interface ErrorDetails {
  status: number;
  /** The spec's `error` (7.2): a short message to log, not to show to end users. */
  error: string;
  /** The spec's `errors` (7.2): field messages, when the server sent them. */
  errors?: string[];
  /** Atrium's stable machine code, when the server sent one (`SLOT_SOLD_OUT` …). */
  code?: string;
  requestId?: string;
  method: string;
  /** Path with query, secrets masked (the same text the failed-call log shows). */
  path: string;
  attempts: number;
  retryAfterMs?: number;
}

export class AtriumError extends Error {
  override name = 'AtriumError';
}

export class ApiError extends AtriumError {
  override name = 'ApiError';
  readonly status: number;
  readonly error: string;
  readonly errors: string[] | undefined;
  readonly code: string | undefined;
  readonly requestId: string | undefined;
  readonly method: string;
  readonly path: string;
  readonly attempts: number;
  readonly retryAfterMs: number | undefined;
  constructor(d: ErrorDetails) {
    super(`${d.method} ${d.path} → ${d.status}: ${d.error}${d.errors?.length ? ` (${d.errors.join('; ')})` : ''}`);
    this.status = d.status;
    this.error = d.error;
    this.errors = d.errors;
    this.code = d.code;
    this.requestId = d.requestId;
    this.method = d.method;
    this.path = d.path;
    this.attempts = d.attempts;
    this.retryAfterMs = d.retryAfterMs;
  }
}

export class BadRequestError extends ApiError { override name = 'BadRequestError'; }
/** 401: token missing, expired, revoked or of another instance. Never retried: replace the token. */
export class UnauthorizedError extends ApiError { override name = 'UnauthorizedError'; }
/** 403: the token lacks the permission. Never retried. */
export class ForbiddenError extends ApiError { override name = 'ForbiddenError'; }
/** 404: unknown record or route. Never retried. */
export class NotFoundError extends ApiError { override name = 'NotFoundError'; }
/** 410: the resource existed but is gone (an expired document). Never retried. */
export class GoneError extends ApiError { override name = 'GoneError'; }
/** 409: the same Idempotency-Key is still in flight. */
export class ConflictError extends ApiError { override name = 'ConflictError'; }
/** 422: validation or business rule; `errors` lists field messages. */
export class UnprocessableError extends ApiError { override name = 'UnprocessableError'; }
/** 422 SLOT_SOLD_OUT: re-fetch availability and let the user choose again (spec 7.3). */
export class SlotSoldOutError extends UnprocessableError { override name = 'SlotSoldOutError'; }
/** 422 RESERVATION_EXPIRED: create a new reservation (spec 7.3). */
export class ReservationExpiredError extends UnprocessableError { override name = 'ReservationExpiredError'; }
/** 422 CAPACITY_BUSY twice in a row: the race of spec 7.3, already retried once (spec 8.3). */
export class CapacityBusyError extends UnprocessableError { override name = 'CapacityBusyError'; }
/** 422 ORDER_FINALIZED. */
export class OrderFinalizedError extends UnprocessableError { override name = 'OrderFinalizedError'; }
/** 429 after the retry budget was spent. */
export class RateLimitedError extends ApiError { override name = 'RateLimitedError'; }
/** 5xx after the retry budget was spent (spec 7.1: 3 to 5 attempts, then report). */
export class ServerError extends ApiError { override name = 'ServerError'; }

/** No HTTP answer at all (connection refused or reset, timeout) after the retry budget. */
export class NetworkError extends AtriumError {
  override name = 'NetworkError';
  constructor(readonly method: string, readonly path: string, readonly attempts: number, cause: unknown) {
    super(`${method} ${path}: no answer after ${attempts} attempt(s): ${(cause as Error)?.message ?? String(cause)}`, { cause });
  }
}

/**
 * A POST whose outcome could not be established: the call failed in a way that may have been
 * applied (timeout, 5xx) and the lookup by foreign_id could not answer either. Nothing was resent
 * blindly; check later with `foreignId`.
 */
export class OutcomeUnknownError extends AtriumError {
  override name = 'OutcomeUnknownError';
  constructor(readonly method: string, readonly path: string, readonly foreignId: string | undefined, cause: unknown) {
    super(`${method} ${path}: outcome unknown${foreignId ? ` (foreign_id ${foreignId})` : ''}: ${(cause as Error)?.message ?? String(cause)}`, { cause });
  }
}

/** A document download still answered 202 when the deadline passed. */
export class DocumentNotReadyError extends AtriumError {
  override name = 'DocumentNotReadyError';
  constructor(readonly documentId: number, readonly waitedMs: number) {
    super(`document ${documentId} is still being processed after ${Math.round(waitedMs)} ms`);
  }
}

const BY_CODE: Record<string, typeof ApiError> = {
  SLOT_SOLD_OUT: SlotSoldOutError,
  RESERVATION_EXPIRED: ReservationExpiredError,
  CAPACITY_BUSY: CapacityBusyError,
  ORDER_FINALIZED: OrderFinalizedError,
};

const BY_STATUS: Record<number, typeof ApiError> = {
  400: BadRequestError,
  401: UnauthorizedError,
  403: ForbiddenError,
  404: NotFoundError,
  409: ConflictError,
  410: GoneError,
  422: UnprocessableError,
  429: RateLimitedError,
};

export function apiError(d: ErrorDetails): ApiError {
  const Cls = (d.code && BY_CODE[d.code]) || BY_STATUS[d.status] || (d.status >= 500 ? ServerError : ApiError);
  return new Cls(d);
}
