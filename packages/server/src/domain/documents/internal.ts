// Shared lookups of the documents area: who may see which document, the status as shown (a
// document past available_until is "expired" at once, whether or not the purge job has run
// yet), and the short document list that orders embed.
import { and, asc, eq, getTableColumns, inArray, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { documents } from '../../db/schema/index.ts';
import type { Ctx } from '../context.ts';
import { notFound } from '../errors.ts';
import { hasRight, type Principal } from '../principal.ts';

export type DocumentRow = typeof documents.$inferSelect;
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

/** Every column but the bytes. */
export const metaColumns = (() => {
  const { content: _content, ...rest } = getTableColumns(documents);
  return rest;
})();

/**
 * The documents a caller may see, as SQL. Resellers: those of their own orders and requests
 * (account_id is the owner of the order/request). Users with documents:read: those touching a
 * museum of their scope (empty scope = every museum). Out-of-scope documents are 404s.
 */
export function visibleDocuments(p: Principal): SQL {
  if (p.kind !== 'account') return sql`false`;
  if (p.access === 'reseller') return eq(documents.accountId, p.accountId);
  if (p.access === 'user' && hasRight(p, 'documents', 'read')) {
    if (p.museumIds.length === 0) return sql`true`;
    return sql`${documents.museumIds} && ${sql.raw(`'{${p.museumIds.map(Number).join(',')}}'::integer[]`)}`;
  }
  return sql`false`;
}

export function toMeta(row: Omit<DocumentRow, 'content'>, now: Date): DocumentMeta {
  return { ...row, status: statusAt(row, now) };
}

export async function findDocumentMeta(db: DbOrTx, ctx: Ctx, id: number): Promise<DocumentMeta> {
  const [row] = await db
    .select(metaColumns)
    .from(documents)
    .where(and(eq(documents.id, id), visibleDocuments(ctx.principal)));
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
  if (orderIds.length === 0) return out;
  const rows = await db
    .select({
      id: documents.id,
      orderId: documents.orderId,
      kind: documents.kind,
      status: documents.status,
      availableUntil: documents.availableUntil,
      filename: documents.filename,
    })
    .from(documents)
    .where(inArray(documents.orderId, orderIds))
    .orderBy(asc(documents.id));
  for (const r of rows) {
    const list = out.get(r.orderId!) ?? [];
    list.push({ id: r.id, kind: r.kind as DocumentKind, status: statusAt(r, now), filename: r.filename });
    out.set(r.orderId!, list);
  }
  return out;
}
