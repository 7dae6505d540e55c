// Examples of the OpenAPI document. Request and 2xx response examples are real answers recorded
// from the test suite's traffic (scripts/openapi-examples.ts refreshes openapi-examples.json);
// error answers share one example per status, with the codes of docs/errors.md. Every example is
// validated against its own schema by test/contract/openapi-examples.test.ts, so none can rot.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

type Obj = Record<string, any>;

/** operationId → the request body sent and the answer per 2xx status. */
export type Examples = Record<string, { request?: unknown; responses: Record<string, unknown> }>;

export const EXAMPLES_FILE = fileURLToPath(new URL('./openapi-examples.json', import.meta.url));

let loaded: Examples | undefined;
function examples(): Examples {
  loaded ??= fs.existsSync(EXAMPLES_FILE) ? (JSON.parse(fs.readFileSync(EXAMPLES_FILE, 'utf8')) as Examples) : {};
  return loaded;
}

const RID = '01JD6Z6W3VQ8K4N2M5P7R9T1XA';
/** One answer per error status, as the server sends it (code names from docs/errors.md). */
export const ERROR_EXAMPLES: Record<string, Obj> = {
  '202': { error: 'document is being processed', code: 'DOCUMENT_PROCESSING', request_id: RID },
  '400': { error: 'request body is not valid JSON', code: 'BAD_REQUEST', request_id: RID },
  '401': { error: 'authentication error; no customer or no user present', code: 'UNAUTHORIZED', request_id: RID },
  '403': { error: 'a reseller token may not use this endpoint', code: 'FORBIDDEN', request_id: RID },
  '404': { error: 'not found', code: 'NOT_FOUND', request_id: RID },
  '409': { error: 'a request with this Idempotency-Key is still in progress', code: 'IDEMPOTENCY_IN_FLIGHT', request_id: RID },
  '410': { error: 'document no longer available', code: 'GONE', request_id: RID },
  '413': { error: 'request body is too large', code: 'PAYLOAD_TOO_LARGE', request_id: RID },
  '415': { error: 'Content-Type must be application/json', code: 'UNSUPPORTED_MEDIA_TYPE', request_id: RID },
  '422': { error: 'validation failed', errors: ['quantity must be at least 1'], code: 'VALIDATION_FAILED', request_id: RID },
  '429': { error: 'rate limit exceeded', code: 'RATE_LIMITED', request_id: RID },
  '500': { error: 'internal server error', code: 'INTERNAL', request_id: RID },
  '502': { error: 'the payment provider could not start the payment: request timed out', code: 'PAYMENT_PROVIDER_ERROR', request_id: RID },
  '503': { error: 'the database did not answer in time; retry', code: 'SERVICE_UNAVAILABLE', request_id: RID },
  '507': { error: 'upload quota of this account exceeded', code: 'STORAGE_QUOTA_EXCEEDED', request_id: RID },
};

/** Sets `example` on the operation's JSON request body and answers, where one is known. */
export function applyExamples(op: Obj): void {
  const mine = examples()[op.operationId as string];
  const body = op.requestBody?.content?.['application/json'];
  if (body && mine?.request !== undefined) body.example ??= mine.request;
  for (const [status, res] of Object.entries<Obj>(op.responses ?? {})) {
    const json = res.content?.['application/json'];
    if (!json) continue;
    const isError = /ErrorBody/.test(String(json.schema?.$ref ?? ''));
    const value = mine?.responses[status] ?? (isError ? ERROR_EXAMPLES[status] : undefined);
    if (value !== undefined) json.example ??= value;
  }
}
