// OCTO's error shape on /octo (docs/octo.md): `{error, errorMessage}` plus the offending id for the
// INVALID_* codes, HTTP 400 for every OCTO code and 500 only for INTERNAL_SERVER_ERROR, never a
// 404 for an unknown product or booking. Domain refusals are mapped here, in one table.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, type ErrorCode } from '../../domain/errors.ts';

export type OctoCode =
  | 'INVALID_PRODUCT_ID'
  | 'INVALID_OPTION_ID'
  | 'INVALID_UNIT_ID'
  | 'INVALID_AVAILABILITY_ID'
  | 'INVALID_BOOKING_UUID'
  | 'BAD_REQUEST'
  | 'UNPROCESSABLE_ENTITY'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'INTERNAL_SERVER_ERROR';

const ID_KEY: Partial<Record<OctoCode, string>> = {
  INVALID_PRODUCT_ID: 'productId',
  INVALID_OPTION_ID: 'optionId',
  INVALID_UNIT_ID: 'unitId',
  INVALID_AVAILABILITY_ID: 'availabilityId',
  INVALID_BOOKING_UUID: 'uuid',
};

export class OctoError extends Error {
  constructor(
    readonly code: OctoCode,
    message: string,
    readonly value?: string,
  ) {
    super(message);
  }
}

export const badRequest = (m: string) => new OctoError('BAD_REQUEST', m);
export const unprocessable = (m: string) => new OctoError('UNPROCESSABLE_ENTITY', m);
export const invalidProduct = (id: string) => new OctoError('INVALID_PRODUCT_ID', `unknown product ${JSON.stringify(id)}`, id);
export const invalidOption = (id: string) => new OctoError('INVALID_OPTION_ID', `unknown option ${JSON.stringify(id)}`, id);
export const invalidUnit = (id: string) => new OctoError('INVALID_UNIT_ID', `unknown unit ${JSON.stringify(id)}`, id);
export const invalidAvailability = (id: string) => new OctoError('INVALID_AVAILABILITY_ID', `unknown or unavailable availability ${JSON.stringify(id)}`, id);
export const invalidBooking = (uuid: string, why = 'unknown booking') => new OctoError('INVALID_BOOKING_UUID', `${why} ${JSON.stringify(uuid)}`, uuid);

// Refusals of a valid request (sold out, closed, limits, state) are UNPROCESSABLE_ENTITY.
const UNPROCESSABLE: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'VALIDATION_FAILED', 'SLOT_SOLD_OUT', 'QUANTITY_ABOVE_CAPACITY', 'HOLD_LIMIT_EXCEEDED', 'DATE_IN_PAST', 'NOT_BOOKABLE', 'CLOSED',
  'LANGUAGE_NOT_AVAILABLE', 'ORDER_FINALIZED', 'ORDER_CANCELLED', 'TOTAL_MISMATCH', 'FOREIGN_ID_CONFLICT', 'CAPACITY_BUSY',
]);

/** A domain refusal in OCTO terms; `uuid` names the booking of a booking route. */
export function fromDomain(err: DomainError, uuid?: string): OctoError {
  const detail = err.errors?.length ? `${err.message}: ${err.errors.join('; ')}` : err.message;
  if (err.code === 'UNAUTHORIZED') return new OctoError('UNAUTHORIZED', err.message);
  if (err.code === 'FORBIDDEN') return new OctoError('FORBIDDEN', err.message);
  if (uuid !== undefined && (err.code === 'NOT_FOUND' || err.code === 'ORDER_EXPIRED' || err.code === 'RESERVATION_EXPIRED')) {
    return invalidBooking(uuid, err.code === 'NOT_FOUND' ? 'unknown booking' : 'the hold has expired for booking');
  }
  if (UNPROCESSABLE.has(err.code) || err.code === 'ORDER_EXPIRED') return unprocessable(detail);
  if (err.code === 'INTERNAL' || err.code === 'SERVICE_UNAVAILABLE') return new OctoError('INTERNAL_SERVER_ERROR', err.message);
  return badRequest(detail);
}

function statusOf(e: OctoError, domain?: DomainError): number {
  if (e.code === 'INTERNAL_SERVER_ERROR') return domain?.code === 'SERVICE_UNAVAILABLE' ? 503 : 500;
  if (domain?.code === 'RATE_LIMITED') return 429;
  return 400;
}

export function sendOcto(req: FastifyRequest, reply: FastifyReply, err: OctoError | DomainError) {
  const domain = err instanceof DomainError ? err : undefined;
  const octo = err instanceof OctoError ? err : fromDomain(err);
  if (domain?.retryAfter !== undefined) reply.header('retry-after', String(domain.retryAfter));
  const body: Record<string, unknown> = { error: octo.code, errorMessage: octo.message };
  const key = ID_KEY[octo.code];
  if (key) body[key] = octo.value ?? '';
  body.requestId = req.id;
  return reply.code(statusOf(octo, domain)).type('application/json; charset=utf-8').serializer(JSON.stringify).send(body);
}
