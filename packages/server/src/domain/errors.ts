// Domain errors are stable codes with a human message (spec 7.2: `error`, optionally `errors`).
// The HTTP layer maps each code to a status in one table (http/status.ts); the CLI and
// jobs print the message. Domain code never speaks HTTP.
export const ERROR_CODES = [
  'VALIDATION_FAILED',
  'BAD_REQUEST',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'ROUTE_INVALID',
  'METHOD_NOT_ALLOWED',
  'NOT_ACCEPTABLE',
  'GONE',
  'DOCUMENT_PROCESSING',
  'PAYLOAD_TOO_LARGE',
  'STORAGE_QUOTA_EXCEEDED',
  'STORAGE_FULL',
  'UNSUPPORTED_MEDIA_TYPE',
  'HEADERS_TOO_LARGE',
  'REQUEST_TIMEOUT',
  'HOLD_LIMIT_EXCEEDED',
  'RATE_LIMITED',
  'SLOT_SOLD_OUT',
  'QUANTITY_ABOVE_CAPACITY',
  'RESERVATION_EXPIRED',
  'ORDER_FINALIZED',
  'ORDER_EXPIRED',
  'ORDER_CANCELLED',
  'SCAN_REFUSED',
  'REQUEST_NOT_PENDING',
  'DATE_IN_PAST',
  'NOT_BOOKABLE',
  'CLOSED',
  'LANGUAGE_NOT_AVAILABLE',
  'TOTAL_MISMATCH',
  'CAPACITY_BUSY',
  'FOREIGN_ID_CONFLICT',
  'IDEMPOTENCY_IN_FLIGHT',
  'IDEMPOTENCY_KEY_REUSED',
  'PAYMENT_PROVIDER_UNAVAILABLE',
  'PAYMENT_PROVIDER_ERROR',
  'PAYMENT_NOT_DUE',
  'GIFT_CARD_NOT_AVAILABLE',
  'CODE_INVALID',
  'CODE_EXHAUSTED',
  'CODE_EXPIRED',
  'CODE_NOT_APPLICABLE',
  'VOUCHER_WRONG_TICKET',
  'GIFT_CARD_MIXED',
  'GIFT_CARD_PAYS_GIFT_CARD',
  'CODE_REDEEMED',
  'REFUND_EXCEEDS_PAID',
  'REFUND_NOT_RETRYABLE',
  'CANCELLATION_NOT_ALLOWED',
  'WEBHOOK_SIGNATURE_INVALID',
  'SERVICE_UNAVAILABLE',
  'INTERNAL',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export interface DomainErrorOptions {
  /** Field messages for nested-object validation (spec 7.2 form 2). */
  errors?: string[];
  /** Seconds after which a retry may succeed (CAPACITY_BUSY, RATE_LIMITED, 503). */
  retryAfter?: number;
  /** Which check refused, as a stable key a page can translate (not sent over the API). */
  reason?: string;
}

export class DomainError extends Error {
  readonly code: ErrorCode;
  readonly errors: string[] | undefined;
  readonly retryAfter: number | undefined;
  readonly reason: string | undefined;
  constructor(code: ErrorCode, message: string, opts: DomainErrorOptions = {}) {
    super(message);
    this.name = 'DomainError';
    this.code = code;
    this.errors = opts.errors;
    this.retryAfter = opts.retryAfter;
    this.reason = opts.reason;
  }
}

export const notFound = (what: string) => new DomainError('NOT_FOUND', `${what} not found`);
export const forbidden = (message = 'token lacks the permission for this action') =>
  new DomainError('FORBIDDEN', message);
export const invalid = (message: string, errors?: string[]) =>
  new DomainError('VALIDATION_FAILED', message, errors ? { errors } : {});
