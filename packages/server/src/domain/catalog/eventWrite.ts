// Events (staff): create and update. An event carries price and channels; its dates carry seats.
import { insertEvent, lockEvent, updateEvent } from '../../db/repositories/catalog/products.ts';
import { languagesByEvent } from '../../db/repositories/catalog/related.ts';
import { transaction } from '../../db/transaction.ts';
import type { Ctx } from '../context.ts';
import { notFound } from '../errors.ts';
import { inMuseumScope } from '../principal.ts';
import { toTranslated, type TextInput } from './checks.ts';
import { categoryOf, resolveCategory, type CategoryInput } from './categories.ts';
import { eventRules, exhibitionRefs, resellerRefs } from './rules.ts';
import { eventView, type View } from './views.ts';
import { assertStaff, defined, failIfAny, writableMuseum, writeView } from './writeSupport.ts';

export interface EventInput {
  museum_id?: number;
  exhibition_id?: number | null;
  title?: TextInput;
  sub_title?: TextInput | null;
  description?: TextInput | null;
  /** A name (found or created), `{id}`, `{name}`, or null (categories.ts). */
  category?: CategoryInput;
  featured?: boolean;
  price_cents?: number;
  reseller_price_cents?: number | null;
  vat_pct?: number;
  tax_included?: boolean;
  sales_channels?: string[];
  reseller_account_ids?: number[];
  active?: boolean;
}

const DEFAULTS: EventInput = {
  exhibition_id: null, sub_title: null, description: null, category: null, featured: false, price_cents: 0,
  reseller_price_cents: null, vat_pct: 0, tax_included: true, sales_channels: ['shop', 'reseller'], reseller_account_ids: [], active: true,
};

export async function saveEvent(ctx: Ctx, input: EventInput & { id?: number }): Promise<View> {
  assertStaff(ctx);
  const { id, ...changes } = input;
  // The museum's address, read with the museum the write checks: the answer's `location`.
  let location: Record<string, unknown> | null = null;
  const row = await transaction(ctx.db, async (tx) => {
    let e: EventInput = DEFAULTS;
    if (id !== undefined) {
      const c = await lockEvent(tx, id);
      if (!c || !inMuseumScope(ctx.principal, c.museumId)) throw notFound('event');
      e = {
        museum_id: c.museumId, exhibition_id: c.exhibitionId, title: c.title, sub_title: c.subTitle, description: c.description,
        category: c.categoryId === null ? null : { id: c.categoryId }, featured: c.featured, price_cents: c.priceCents, reseller_price_cents: c.resellerPriceCents,
        vat_pct: c.vatPct, tax_included: c.taxIncluded, sales_channels: c.salesChannels, reseller_account_ids: c.resellerAccountIds, active: c.active,
      };
    }
    e = { ...e, ...defined(changes) };
    location = (await writableMuseum(ctx, tx, e.museum_id)).location ?? null;
    const problems = eventRules(ctx.config, e as Record<string, unknown>);
    failIfAny('event', problems);
    const category = await resolveCategory(tx, 'event', e.category);
    failIfAny('event', [
      ...(e.exhibition_id ? await exhibitionRefs(tx, e.museum_id!, [e.exhibition_id]) : []),
      ...(await resellerRefs(tx, [...new Set(e.reseller_account_ids!)])),
      ...category.problems,
    ]);
    const v = {
      museumId: e.museum_id!, exhibitionId: e.exhibition_id ?? null, title: toTranslated(ctx.config, e.title!),
      subTitle: toTranslated(ctx.config, e.sub_title), description: toTranslated(ctx.config, e.description), categoryId: category.id,
      featured: e.featured!, priceCents: e.price_cents!, resellerPriceCents: e.reseller_price_cents ?? null, vatPct: e.vat_pct!,
      taxIncluded: e.tax_included!, salesChannels: [...new Set(e.sales_channels!)], resellerAccountIds: [...new Set(e.reseller_account_ids!)], active: e.active!,
    };
    return id === undefined ? insertEvent(tx, v) : updateEvent(tx, id, { ...v, updatedAt: ctx.clock.now() });
  });
  const [langs, category] = await Promise.all([languagesByEvent(ctx.db, [row.id]), categoryOf(ctx.db, row.categoryId)]);
  return eventView(ctx.principal, row, writeView(ctx).L, { languages: langs.get(row.id) ?? [], category, location });
}
