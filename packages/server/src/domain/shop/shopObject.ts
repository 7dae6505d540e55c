// GET /api/v4/shop: the shop's settings and translations as a go~mus client reads them (docs/shop.md,
// "The shop object"). `title` is in the chosen locale (the instance default as fallback), every
// translatable text is also given per locale under `translations`. The list of websites allowed to
// embed the shop is the operator's and not shown.
import { resolveLocale } from '../catalog/internal.ts';
import type { Ctx } from '../context.ts';
import type { ProviderName } from '../payments/provider.ts';
import { parseRule } from './cancellationRule.ts';
import { getShopSettings } from './settings.ts';

export interface ShopObject {
  title: string;
  colour: string;
  logo_url: string | null;
  logo_media_id: number | null;
  locales: string[];
  default_locale: string;
  currency: string;
  zone: string;
  links: { terms: string | null; privacy: string | null; imprint: string | null };
  cancellation: { rule: string; hours: number | null };
  payment_providers: string[];
  offers: Array<{ type: string; id: number }>;
  translations: Record<string, { title: string | null; welcome: string | null; footer: string | null; confirmation: string | null }>;
}

/** `enabled`: the providers this instance runs; the settings choose among them (none chosen: all). */
export async function getShopObject(ctx: Ctx, input: { locale?: string | string[] | undefined; enabled: readonly ProviderName[] }): Promise<ShopObject> {
  const s = await getShopSettings(ctx);
  const mode = resolveLocale(ctx, input.locale);
  const locale = mode.kind === 'one' ? mode.locale : mode.locales[0]!;
  const fallback = ctx.config.locales[0] ?? 'de';
  const rule = parseRule(s.cancellationDefault) ?? { kind: 'hours' as const, hours: 24 };
  const langs = [...new Set([...ctx.config.locales, ...Object.keys(s.title), ...Object.keys(s.texts)])];
  return {
    title: s.title[locale] ?? s.title[fallback] ?? Object.values(s.title)[0] ?? '',
    colour: s.colour,
    logo_url: s.logoUrl,
    logo_media_id: s.logoMediaId,
    locales: [...ctx.config.locales],
    default_locale: fallback,
    currency: ctx.config.currency,
    zone: ctx.config.zone,
    links: { terms: s.termsUrl, privacy: s.privacyUrl, imprint: s.imprintUrl },
    cancellation: { rule: s.cancellationDefault, hours: rule.kind === 'hours' ? rule.hours : null },
    payment_providers: s.providers.length ? s.providers.filter((p) => input.enabled.includes(p)) : [...input.enabled],
    offers: s.offers,
    translations: Object.fromEntries(langs.map((l) => [l, {
      title: s.title[l] ?? null,
      welcome: s.texts[l]?.welcome ?? null,
      footer: s.texts[l]?.footer ?? null,
      confirmation: s.texts[l]?.confirmation ?? null,
    }])),
  };
}
