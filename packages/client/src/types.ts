// Types of requests and records, derived from the generated OpenAPI types (src/generated/openapi.ts,
// never edited by hand). Routes that are not in the committed document yet (requests, documents)
// fall back to the shapes of docs/api-contract.md §9–10 until the document is regenerated; from then on the
// generated types win automatically (see `Or`).
import type { paths } from './generated/openapi.ts';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type Op<P, M extends Method> = P extends keyof paths ? (M extends keyof paths[P] ? NonNullable<paths[P][M]> : never) : never;
type Json<R> = R extends { content: { 'application/json': infer J } } ? J : never;
type Or<T, F> = [T] extends [never] ? F : T;

/** The JSON body of the 200 (else 201) answer of an operation. */
export type OkBody<P, M extends Method> = Op<P, M> extends { responses: infer R }
  ? R extends { 200: infer A } ? Json<A> : R extends { 201: infer B } ? Json<B> : never
  : never;
/** Query parameters of an operation (`{}` when it has none). */
export type QueryOf<P, M extends Method> = Op<P, M> extends { parameters: { query?: infer Q } } ? Or<NonNullable<Q>, Record<string, never>> : never;
/** The JSON request body of an operation. */
export type BodyOf<P, M extends Method> = Op<P, M> extends { requestBody?: infer B } ? Json<NonNullable<B>> : never;

export interface ListMeta { total_count: number; page: number; per_page: number }
/** A list answer: the unwrapped records (an array) with the envelope's `meta`. */
export type List<T> = T[] & { meta: ListMeta };

type A = '/api/v4';
export type Whoami = OkBody<`${A}/whoami`, 'get'>;
export type Version = OkBody<`${A}/version`, 'get'>['version'];
export type Museum = OkBody<`${A}/museums/{id}`, 'get'>['museum'];
export type Exhibition = OkBody<`${A}/exhibitions/{id}`, 'get'>['exhibition'];
export type Ticket = OkBody<`${A}/tickets/{id}`, 'get'>['ticket'];
export type Event = OkBody<`${A}/events/{id}`, 'get'>['event'];
export type EventDate = OkBody<`${A}/events/{event_id}/dates/{id}`, 'get'>['date'];
export type Tour = OkBody<`${A}/tours/{id}`, 'get'>['tour'];
export type Quota = OkBody<`${A}/quotas/{id}`, 'get'>['quota'];
export type Reservation = OkBody<`${A}/reservations`, 'post'>['reservation'];
export type Order = OkBody<`${A}/orders/{id}`, 'get'>['order'];
export type Customer = OkBody<`${A}/customers/{id}`, 'get'>['customer'];

export type OrderInput = BodyOf<`${A}/orders`, 'post'>;
export type ReservationInput = BodyOf<`${A}/reservations`, 'post'>;
export type CustomerInput = BodyOf<`${A}/customers`, 'post'>;

/** docs/api-contract.md §9, until the server's /requests routes are in openapi/openapi.json. */
export interface RequestRecordFallback {
  id: number;
  foreign_id: string | null;
  status: 'pending' | 'accepted' | 'declined' | 'withdrawn' | string;
  date: string;
  participants: number;
  companions?: number | null;
  notes?: string | null;
  items: Array<{ tour_id: number; start_time: string; language_id: number | null }>;
  customer_id?: number | null;
  [field: string]: unknown;
}
export interface RequestInputFallback {
  foreign_id?: string;
  date: string;
  participants: number;
  companions?: number;
  notes?: string;
  items: Array<{ tour_id: number; start_time: string; language_id?: number }>;
  customer?: CustomerInput;
  customer_id?: number | string;
  contact?: { name?: string; surname?: string; email?: string; phone?: string; role?: string };
}
/** docs/api-contract.md §10, until the server's /documents routes are in openapi/openapi.json. */
export interface DocumentRecordFallback {
  id: number;
  kind: 'ticket' | 'invoice' | 'confirmation' | 'attachment' | string;
  order_id?: number | null;
  request_id?: number | null;
  filename: string;
  content_type: string;
  byte_size: number;
  status: 'processing' | 'available' | 'rejected' | 'expired' | string;
  created_at: string;
  available_until?: string | null;
  [field: string]: unknown;
}
export interface DocumentUploadFallback {
  filename: string;
  content_type: string;
  /** base64 */
  content: string;
  order_id?: number;
  request_id?: number;
}

type RequestOne = OkBody<`${A}/requests/{id}`, 'get'>;
type DocumentOne = OkBody<`${A}/documents/{id}`, 'get'>;
type Inner<B, K extends string, F> = [B] extends [never] ? F : B extends { [k in K]: infer R } ? R : F;
export type RequestRecord = Inner<RequestOne, 'request', RequestRecordFallback>;
export type RequestInput = Or<BodyOf<`${A}/requests`, 'post'>, RequestInputFallback>;
export type DocumentRecord = Inner<DocumentOne, 'document', DocumentRecordFallback>;
export type DocumentUpload = Or<BodyOf<`${A}/documents`, 'post'>, DocumentUploadFallback>;

/** A downloaded document file. */
export interface DocumentFile {
  bytes: Uint8Array;
  contentType: string;
  filename: string | undefined;
}

type MediaOne = OkBody<`${A}/media/{id}`, 'get'>;
/** An uploaded picture and the go~mus `picture` object it gives its record (docs/gomus-compatibility.md). */
export type MediaRecord = Inner<MediaOne, 'media', { id: number; target_type: string; target_id: number; picture: Record<string, string | null> }>;
export interface MediaUpload {
  /** The picture's bytes: JPEG, PNG or WebP, at most 20 MB; the server reads the type from the bytes. */
  file: Blob | Uint8Array;
  filename?: string;
  target_type: 'museum' | 'exhibition' | 'ticket' | 'event' | 'tour';
  target_id: number;
  title?: string;
  description?: string;
  copyright_info?: string;
}
