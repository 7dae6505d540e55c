// What a visitor mail says, read from the database as it is when the mail is sent: the order's
// lines with their titles in the mail's language and visit times in each museum's zone, or the
// request's date and size; the visitor's name; and, for a confirmation, the ticket PDFs and the
// invoice (null while any of them is still being rendered: the caller waits and tries again).
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import type { Ctx } from '../../domain/context.ts';
import { orderManageLink } from '../../domain/shop/manageLink.ts';
import { soldCodePdfsOfOrder } from '../../domain/vouchers/orderCodePdf.ts';
import { t } from '../../i18n/index.ts';
import type { MailKind } from './kinds.ts';
import type { MailContent } from './templates.ts';

export interface Attachment {
  /** The document's kind (ticket, confirmation, invoice, credit_note): the mail names what it carries. */
  kind: string;
  filename: string;
  contentType: string;
  content: Buffer;
}

type Title = Record<string, string> | string | null;
const pick = (title: Title, lang: string) =>
  title === null ? '' : typeof title === 'string' ? title : (title[lang] ?? title.de ?? title.en ?? Object.values(title)[0] ?? '');

/** Gift cards and vouchers sold are named as such (a voucher with its ticket), not as a visit. */
function lineTitle(type: string, title: string, lang: string): string {
  if (type === 'GiftCard') return t(lang, 'gift_card.title');
  if (type === 'Voucher') return `${t(lang, 'voucher.title')}: ${title}`;
  return title;
}

export async function orderContent(db: DbOrTx, orderId: number, lang: string): Promise<MailContent | null> {
  const [o] = (
    await db.execute<{ id: number; total_price_cents: number; currency: string; name: string | null; surname: string | null }>(sql`
      select o.id, o.total_price_cents, o.currency, c.name, c.surname
        from orders o left join customers c on c.id = o.customer_id where o.id = ${orderId}`)
  ).rows;
  if (!o) return null;
  const lines = await db.execute<{ type: string; quantity: number; price_cents: number; status: string; start_at: string; time_zone: string; title: Title }>(sql`
    select oi.type, oi.quantity, oi.price_cents, oi.status, oi.start_at, m.time_zone, coalesce(t.title, ev.title, tr.title, vt.title) as title
      from order_items oi join museums m on m.id = oi.museum_id
      left join tickets t on t.id = oi.ticket_id
      left join tickets vt on vt.id = oi.voucher_ticket_id
      left join event_dates d on d.id = oi.event_date_id left join events ev on ev.id = d.event_id
      left join tours tr on tr.id = oi.tour_id
     where oi.order_id = ${orderId} order by oi.id`);
  return {
    name: [o.name, o.surname].filter(Boolean).join(' '),
    orderId: o.id,
    totalCents: o.total_price_cents,
    currency: o.currency,
    lines: lines.rows.map((l) => ({
      title: lineTitle(l.type, pick(l.title, lang), lang),
      start: new Date(l.start_at),
      zone: l.time_zone,
      quantity: l.quantity,
      priceCents: l.price_cents,
      status: l.status,
    })),
  };
}

/**
 * The manage link of a shop order (docs/shop.md) as a full address, for its confirmation: the
 * order's one link, issued at finalization; null for orders without one (not sold in the shop).
 */
export async function manageUrlOf(ctx: Pick<Ctx, 'db' | 'config'>, orderId: number): Promise<string | null> {
  const [o] = (await ctx.db.execute<{ id: number; token: string }>(sql`select id, token from orders where id = ${orderId}`)).rows;
  const token = o ? await orderManageLink(ctx, o) : null;
  if (!token) return null;
  const base = ctx.config.payments.publicUrl ?? `http://${ctx.config.host}:${ctx.config.port}`;
  return `${base}/shop/manage/${token}`;
}

export async function requestContent(db: DbOrTx, requestId: number): Promise<MailContent | null> {
  const [r] = (
    await db.execute<{ id: number; date: string; participants: number; decline_reason: string | null; name: string | null; surname: string | null; contact: { name?: string; surname?: string } | null }>(sql`
      select r.id, r.date, r.participants, r.decline_reason, c.name, c.surname, r.contact
        from requests r left join customers c on c.id = r.customer_id where r.id = ${requestId}`)
  ).rows;
  if (!r) return null;
  const name = [r.name ?? r.contact?.name, r.surname ?? r.contact?.surname].filter(Boolean).join(' ');
  return { name, requestId: r.id, date: r.date, participants: r.participants, reason: r.decline_reason };
}

/**
 * The mail's documents, or null while one of them is still processing: a confirmation carries
 * the tickets, the booking confirmation (tours) and the invoice, a cancellation the credit note for exactly its items (made in the
 * cancellation's transaction when the order was invoiced, domain/documents/queueOrderDocuments.ts).
 */
export async function attachmentsFor(db: DbOrTx, kind: MailKind, orderId: number, cancelledItemIds: number[] = []): Promise<Attachment[] | null> {
  if (kind !== 'order_confirmation' && kind !== 'order_cancellation') return [];
  const which =
    kind === 'order_confirmation'
      ? sql`kind in ('ticket', 'confirmation', 'invoice')`
      : sql`kind = 'credit_note' and item_ids = ${`{${[...cancelledItemIds].sort((a, b) => a - b).join(',')}}`}::int[]`;
  const docs = await db.execute<{ kind: string; status: string; filename: string; content_type: string; content: Buffer | null }>(sql`
    select kind, status, filename, content_type, content from documents where order_id = ${orderId} and ${which} order by id`);
  if (docs.rows.some((d) => d.status === 'processing')) return null;
  return docs.rows
    .filter((d) => d.status === 'available' && d.content)
    .map((d) => ({ kind: d.kind, filename: d.filename, contentType: d.content_type, content: d.content! }));
}

/**
 * The gift cards and vouchers the order sold, drawn for its confirmation: their codes are kept
 * sealed for the buyer (docs/vouchers.md), so the PDFs are made when the mail is, not stored.
 */
export async function soldCodeAttachments(ctx: Pick<Ctx, 'db' | 'config' | 'masterData'>, orderId: number): Promise<Attachment[]> {
  const sold = await soldCodePdfsOfOrder(ctx, ctx.db, orderId);
  if (sold.length === 0) return [];
  const { renderGiftCardPdf } = await import('../../documents/render/giftCard.ts');
  const out: Attachment[] = [];
  for (const s of sold) out.push({ kind: s.kind, filename: s.filename, contentType: 'application/pdf', content: await renderGiftCardPdf(s.data) });
  return out;
}
