// Promo codes (docs/vouchers.md): staff create, list, read and (de)activate them. A code is a
// discount - percent or amount off, a free item, buy X get Y, a free companion - with limits: products, sales
// channel, sale and visit dates, a minimum quantity, total uses and uses per e-mail, and an
// optional partner it is attributed to. Applying one to an order is promoApply.ts.
import { insertPromoCode, listPromoCodes as listRows, promoCodeById, setPromoActive, type PromoCodeRow } from '../../db/repositories/promoCodes.ts';
import type { Ctx } from '../context.ts';
import { invalid, notFound } from '../errors.ts';
import { recordAudit } from '../audit/recordAudit.ts';
import { callerOf } from '../payments/internal.ts';
import { addDays, zonedInstant } from '../time.ts';
import type { PromoKind } from '../../db/schema/promoCodes.ts';
import { requireStaff } from './giftCards.ts';
import { promoErrors } from './promoValidate.ts';

export const PROMO_CHANNELS = ['shop', 'desk', 'reseller'] as const;
export type PromoChannel = (typeof PROMO_CHANNELS)[number];

export interface PromoInput {
  code: string;
  kind: PromoKind;
  percent?: number;
  amount_cents?: number;
  cap_cents?: number;
  buy_quantity?: number;
  get_quantity?: number;
  companion_ticket_id?: number;
  ticket_ids?: number[];
  event_ids?: number[];
  tour_ids?: number[];
  channels?: PromoChannel[];
  sale_from?: string;
  sale_until?: string;
  visit_from?: string;
  visit_until?: string;
  min_quantity?: number;
  max_uses?: number;
  max_uses_per_email?: number;
  partner_account_id?: number;
}

/** Codes are compared without case, spaces or dashes (as gift-card codes are typed). */
export const normalizePromo = (s: string) => s.replace(/[\s-]/g, '').toUpperCase();

export async function createPromoCode(ctx: Ctx, input: PromoInput): Promise<PromoCodeRow> {
  requireStaff(ctx, 'write');
  const code = normalizePromo(input.code);
  const errors = await promoErrors(ctx, code, input);
  if (errors.length) throw invalid('promo code could not be saved', errors);
  const zone = ctx.config.zone;
  const now = ctx.clock.now();
  const actor = callerOf(ctx);
  const row = await insertPromoCode(ctx.db, {
    code, kind: input.kind, capCents: input.cap_cents ?? null, amountCents: input.amount_cents ?? null,
    percent: input.percent ?? (input.kind === 'buy_x_get_y' ? 100 : null),
    buyQuantity: input.buy_quantity ?? null, getQuantity: input.get_quantity ?? (input.kind === 'free_item' ? 1 : null),
    companionTicketId: input.companion_ticket_id ?? null,
    ticketIds: input.ticket_ids ?? [], eventIds: input.event_ids ?? [], tourIds: input.tour_ids ?? [], channels: input.channels ?? [],
    // Sale dates are whole days in the museum's zone: from the first instant of the first to the end of the last.
    saleFrom: input.sale_from ? zonedInstant(input.sale_from, 0, zone) : null,
    saleUntil: input.sale_until ? zonedInstant(addDays(input.sale_until, 1), 0, zone) : null,
    visitFrom: input.visit_from ?? null, visitUntil: input.visit_until ?? null,
    minQuantity: input.min_quantity ?? 1, maxUses: input.max_uses ?? null, maxUsesPerEmail: input.max_uses_per_email ?? null,
    partnerAccountId: input.partner_account_id ?? null, active: true, createdBy: actor, createdAt: now, updatedAt: now,
  });
  if (!row) throw invalid('promo code could not be saved', [`a promo code ${code} exists already`]);
  await recordAudit({ db: ctx.db, clock: ctx.clock }, { system: actor }, { action: 'promo_code.created', entityType: 'promo_code', entityId: row.id, before: null, after: { code, kind: row.kind } });
  return row;
}

export async function getPromoCode(ctx: Ctx, id: number): Promise<PromoCodeRow> {
  requireStaff(ctx, 'read');
  const c = await promoCodeById(ctx.db, id);
  if (!c) throw notFound('promo code');
  return c;
}

export async function listPromoCodes(ctx: Ctx, q: { limit?: number; offset?: number }): Promise<PromoCodeRow[]> {
  requireStaff(ctx, 'read');
  return listRows(ctx.db, { limit: q.limit ?? 50, offset: q.offset ?? 0 });
}

export async function setPromoCodeActive(ctx: Ctx, id: number, active: boolean): Promise<PromoCodeRow> {
  requireStaff(ctx, 'write');
  const c = await setPromoActive(ctx.db, id, active, ctx.clock.now());
  if (!c) throw notFound('promo code');
  return c;
}

export function serializePromoCode(c: PromoCodeRow) {
  return {
    id: c.id, code: c.code, kind: c.kind, percent: c.percent, amount_cents: c.amountCents, cap_cents: c.capCents,
    buy_quantity: c.buyQuantity, get_quantity: c.getQuantity, companion_ticket_id: c.companionTicketId,
    ticket_ids: c.ticketIds, event_ids: c.eventIds, tour_ids: c.tourIds, channels: c.channels,
    sale_from: c.saleFrom?.toISOString() ?? null, sale_until: c.saleUntil?.toISOString() ?? null,
    visit_from: c.visitFrom, visit_until: c.visitUntil, min_quantity: c.minQuantity,
    max_uses: c.maxUses, max_uses_per_email: c.maxUsesPerEmail, uses: c.uses, partner_account_id: c.partnerAccountId, active: c.active,
  };
}
