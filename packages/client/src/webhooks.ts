// Verifying Atrium webhooks (docs/webhooks.md): Standard Webhooks signatures, checked with the
// Web Crypto API so the same code runs in Node (>= 19), Deno, Bun, workers and browsers. Pass the
// raw request body exactly as received (not re-serialised JSON) and the request headers.
//
//   const event = await verifyWebhook(process.env.ATRIUM_WEBHOOK_SECRET!, req.headers, rawBody);
//   if (event.type === 'order.cancelled') ...
//
// Throws WebhookVerificationError when a header is missing, the timestamp is more than five
// minutes away from now (a replayed message), or no signature matches.

/** An order as GET /orders/:id answers it (the fields a receiver usually needs; more may come). */
export interface WebhookOrder {
  id: number;
  foreign_id: string | null;
  status: 'pending' | 'finalized' | 'cancelled' | 'expired';
  total_price_cents: number;
  currency: string;
  customer_id: number | null;
  items: Array<{ id: number; type: 'Ticket' | 'Event' | 'Tour'; status: string; price_cents: number; quantity: number; attributes: Record<string, unknown> }>;
  [field: string]: unknown;
}
export interface WebhookRequest {
  id: number;
  foreign_id: string | null;
  status: 'pending' | 'accepted' | 'declined' | 'withdrawn';
  date: string;
  participants: number;
  order_id: number | null;
  decline_reason: string | null;
  [field: string]: unknown;
}
export interface WebhookDocument {
  id: number;
  kind: string;
  status: 'processing' | 'available' | 'rejected' | 'expired';
  order_id: number | null;
  request_id: number | null;
  filename: string;
  [field: string]: unknown;
}

interface Envelope<T extends string, D> {
  /** `evt_…`: the same for every retry of one event; deduplicate on it. */
  id: string;
  type: T;
  created_at: string;
  data: D;
}
export type OrderEvent =
  | Envelope<'order.created' | 'order.finalized' | 'order.expired', { order: WebhookOrder }>
  | Envelope<'order.cancelled', { order: WebhookOrder; cancelled_item_ids: number[] }>;
export type RequestEvent = Envelope<'request.created' | 'request.accepted' | 'request.declined', { request: WebhookRequest }>;
export type DocumentEvent = Envelope<'document.available' | 'document.rejected', { document: WebhookDocument }>;
export type OtherEvent = Envelope<'scan.created' | 'closure.created' | 'webhook.test', Record<string, unknown>>;
export type WebhookEvent = OrderEvent | RequestEvent | DocumentEvent | OtherEvent;
export type WebhookEventType = WebhookEvent['type'];

export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

/** Messages older or newer than this are refused (Standard Webhooks' recommendation). */
const TOLERANCE_S = 5 * 60;

function header(h: WebhookHeaders, name: string): string {
  const v = typeof (h as Headers).get === 'function' ? (h as Headers).get(name) : (h as Record<string, string | string[] | undefined>)[name] ?? Object.entries(h).find(([k]) => k.toLowerCase() === name)?.[1];
  const s = Array.isArray(v) ? v[0] : v;
  if (!s) throw new WebhookVerificationError(`missing ${name} header`);
  return s;
}

function base64ToBytes(b64: string): Uint8Array {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}
function bytesToBase64(bytes: Uint8Array): string {
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin);
}
/** Compares without stopping at the first difference. */
function equal(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let d = 0;
  for (let i = 0; i < a.length; i++) d |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return d === 0;
}

/**
 * Checks the signature of a webhook and returns the parsed event. `secret` is the `whsec_…`
 * value shown when the webhook was created; `body` the raw body (string or bytes).
 */
export async function verifyWebhook(secret: string, headers: WebhookHeaders, body: string | Uint8Array, now: Date = new Date()): Promise<WebhookEvent> {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  const ts = Number(timestamp);
  if (!/^\d{1,12}$/.test(timestamp) || Math.abs(now.getTime() / 1000 - ts) > TOLERANCE_S) {
    throw new WebhookVerificationError('webhook-timestamp is missing or too far from now');
  }
  let key: Uint8Array;
  try {
    key = base64ToBytes(secret.startsWith('whsec_') ? secret.slice(6) : secret);
  } catch {
    throw new WebhookVerificationError('the secret is not a whsec_ base64 value');
  }
  const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) throw new WebhookVerificationError('Web Crypto (crypto.subtle) is not available here');
  const k = await subtle.importKey('raw', key as BufferSource, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = new Uint8Array(await subtle.sign('HMAC', k, new TextEncoder().encode(`${id}.${timestamp}.${text}`) as BufferSource));
  const expected = bytesToBase64(mac);
  // Several signatures may be sent (key rotation): any v1 match counts.
  const ok = signatures.split(' ').some((s) => {
    const [version, sig] = s.split(',', 2);
    return version === 'v1' && sig !== undefined && equal(sig, expected);
  });
  if (!ok) throw new WebhookVerificationError('no matching signature');
  let event: WebhookEvent;
  try {
    event = JSON.parse(text) as WebhookEvent;
  } catch {
    throw new WebhookVerificationError('the body is not JSON');
  }
  if (event?.id !== id) throw new WebhookVerificationError('webhook-id does not match the event id');
  return event;
}
