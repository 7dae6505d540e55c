// Tours (staff): create and update, with the languages they are offered in.
import { insertTour, languageIdsOfTour, lockTour, setTourLanguages, updateTour } from '../../db/repositories/catalog/products.ts';
import { languagesByTour } from '../../db/repositories/catalog/related.ts';
import { transaction } from '../../db/transaction.ts';
import type { Ctx } from '../context.ts';
import { notFound } from '../errors.ts';
import { inMuseumScope } from '../principal.ts';
import { toTranslated, type TextInput } from './checks.ts';
import { categoryOf, resolveCategory, type CategoryInput } from './categories.ts';
import { exhibitionRefs, languageRefs, resellerRefs, tourRules } from './rules.ts';
import { tourView, type View } from './views.ts';
import { assertStaff, defined, failIfAny, writableMuseum, writeView } from './writeSupport.ts';

export interface TourInput {
  museum_id?: number;
  exhibition_id?: number | null;
  title?: TextInput;
  sub_title?: TextInput | null;
  description?: TextInput | null;
  /** A name (found or created), `{id}`, `{name}`, or null (categories.ts). */
  category?: CategoryInput;
  featured?: boolean;
  duration?: number;
  min_persons?: number;
  max_persons?: number;
  max_concurrent?: number;
  window_start?: number;
  window_end?: number;
  step?: number;
  price_cents?: number;
  reseller_price_cents?: number | null;
  pricing?: 'group' | 'person';
  vat_pct?: number;
  tax_included?: boolean;
  sales_channels?: string[];
  reseller_account_ids?: number[];
  active?: boolean;
  language_ids?: number[];
}

const DEFAULTS: TourInput = {
  exhibition_id: null, sub_title: null, description: null, category: null, featured: false, min_persons: 1, max_concurrent: 1,
  window_start: 600, window_end: 960, step: 15, reseller_price_cents: null, pricing: 'group', vat_pct: 0, tax_included: true,
  sales_channels: ['shop', 'reseller'], reseller_account_ids: [], active: true, language_ids: [],
};

export async function saveTour(ctx: Ctx, input: TourInput & { id?: number }): Promise<View> {
  assertStaff(ctx);
  const { id, ...changes } = input;
  // The museum's address, read with the museum the write checks: the answer's `location`.
  let location: Record<string, unknown> | null = null;
  const row = await transaction(ctx.db, async (tx) => {
    let t: TourInput = DEFAULTS;
    if (id !== undefined) {
      const c = await lockTour(tx, id);
      if (!c || !inMuseumScope(ctx.principal, c.museumId)) throw notFound('tour');
      t = {
        museum_id: c.museumId, exhibition_id: c.exhibitionId, title: c.title, sub_title: c.subTitle, description: c.description,
        category: c.categoryId === null ? null : { id: c.categoryId }, featured: c.featured, duration: c.duration, min_persons: c.minPersons, max_persons: c.maxPersons,
        max_concurrent: c.maxConcurrent, window_start: c.windowStart, window_end: c.windowEnd, step: c.step, price_cents: c.priceCents,
        reseller_price_cents: c.resellerPriceCents, pricing: c.pricing as 'group', vat_pct: c.vatPct, tax_included: c.taxIncluded,
        sales_channels: c.salesChannels, reseller_account_ids: c.resellerAccountIds, active: c.active, language_ids: await languageIdsOfTour(tx, id),
      };
    }
    t = { ...t, ...defined(changes) };
    location = (await writableMuseum(ctx, tx, t.museum_id)).location ?? null;
    failIfAny('tour', tourRules(ctx.config, t as Record<string, unknown>));
    const languageIds = [...new Set(t.language_ids!)].sort((a, b) => a - b);
    const category = await resolveCategory(tx, 'tour', t.category);
    failIfAny('tour', [
      ...(t.exhibition_id ? await exhibitionRefs(tx, t.museum_id!, [t.exhibition_id]) : []),
      ...(await languageRefs(tx, languageIds)),
      ...(await resellerRefs(tx, [...new Set(t.reseller_account_ids!)])),
      ...category.problems,
    ]);
    const v = {
      museumId: t.museum_id!, exhibitionId: t.exhibition_id ?? null, title: toTranslated(ctx.config, t.title!),
      subTitle: toTranslated(ctx.config, t.sub_title), description: toTranslated(ctx.config, t.description), categoryId: category.id,
      featured: t.featured!, duration: t.duration!, minPersons: t.min_persons!, maxPersons: t.max_persons!, maxConcurrent: t.max_concurrent!,
      windowStart: t.window_start!, windowEnd: t.window_end!, step: t.step!, priceCents: t.price_cents!,
      resellerPriceCents: t.reseller_price_cents ?? null, pricing: t.pricing!, vatPct: t.vat_pct!, taxIncluded: t.tax_included!,
      salesChannels: [...new Set(t.sales_channels!)], resellerAccountIds: [...new Set(t.reseller_account_ids!)], active: t.active!,
    };
    const saved = id === undefined ? await insertTour(tx, v) : await updateTour(tx, id, { ...v, updatedAt: ctx.clock.now() });
    await setTourLanguages(tx, saved.id, languageIds, id !== undefined);
    return saved;
  });
  const [langs, category] = await Promise.all([languagesByTour(ctx.db, [row.id]), categoryOf(ctx.db, row.categoryId)]);
  return tourView(ctx.principal, row, writeView(ctx).L, { languages: langs.get(row.id) ?? [], category, location });
}
