// Shared lookups of the documents area: who may see which document, the status as shown (a
// document past available_until is "expired" at once, whether or not the purge job has run
// yet), and the short document list that orders embed.
import type { DbOrTx } from '../../db/client.ts';
import { documentMetaInScope, documentsOfOrderIds, type DocumentMetaRow, type DocumentRow } from '../../db/repositories/documents/documents.ts';
import type { RecordScope } from '../../db/repositories/scope.ts';
import type { Ctx } from '../context.ts';
import { notFound } from '../errors.ts';
import { readScope, type Principal } from '../principal.ts';

export type { DocumentRow };
export type DocumentKind = 'ticket' | 'invoice' | 'credit_note' | 'e_invoice' | 'confirmation' | 'attachment';
export type DocumentStatus = 'processing' | 'available' | 'rejected' | 'expired';
/** A document without its bytes (lists and metadata never load the content). */
export type DocumentMeta = Omit<DocumentRow, 'content' | 'status'> & { status: DocumentStatus };

const DAY_MS = 86_400_000;

export function retentionEnd(ctx: Ctx, from: Date): Date {
  return new Date(from.getTime() + ctx.config.documentRetentionDays * DAY_MS);
}

export function statusAt(row: Pick<DocumentRow, 'status' | 'availableUntil'>, now: Date): DocumentStatus {
  const s = row.status as DocumentStatus;
  if ((s === 'processing' || s === 'available') && row.availableUntil <= now) return 'expired';
  return s;
}

/** A document as SQL builds it with jsonb_build_object (order_place's answer, event snapshots). */
export interface DocumentJson { id: number; kind: string; status: string; filename: string; available_until: string }

/** Those documents as the order view lists them, with their status at `at`. */
export function documentViewsFromJson(docs: DocumentJson[], at: Date) {
  return docs.map((d) => ({
    id: d.id,
    kind: d.kind as DocumentKind,
    status: statusAt({ status: d.status, availableUntil: new Date(d.available_until) }, at),
    filename: d.filename,
  }));
}

/**
 * The documents a caller may see. Resellers: those of their own orders and requests (account_id
 * is the owner of the order/request). Users with documents:read: those touching a museum of
 * their scope (empty scope = every museum). Out-of-scope documents are 404s.
 */
export function visibleDocuments(p: Principal): RecordScope {
  return readScope(p, 'documents');
}

export function toMeta(row: DocumentMetaRow, now: Date): DocumentMeta {
  return { ...row, status: statusAt(row, now) };
}

export async function findDocumentMeta(db: DbOrTx, ctx: Ctx, id: number): Promise<DocumentMeta> {
  const row = await documentMetaInScope(db, id, visibleDocuments(ctx.principal));
  if (!row) throw notFound('document');
  return toMeta(row, ctx.clock.now());
}

export interface DocumentSummary {
  id: number;
  kind: DocumentKind;
  status: DocumentStatus;
  filename: string;
}

/**
 * The documents of orders, for the order answer: whoever may see the order sees this short
 * list (ids, kinds, states); fetching the bytes still goes through the documents rules.
 */
export async function documentsOfOrders(db: DbOrTx, now: Date, orderIds: number[]): Promise<Map<number, DocumentSummary[]>> {
  const out = new Map<number, DocumentSummary[]>();
  for (const r of await documentsOfOrderIds(db, orderIds)) {
    const list = out.get(r.orderId!) ?? [];
    list.push({ id: r.id, kind: r.kind as DocumentKind, status: statusAt(r, now), filename: r.filename });
    out.set(r.orderId!, list);
  }
  return out;
}
