// The visitor shop's settings (docs/shop.md): one document per instance, edited by an admin in
// the console and read by the shop pages, the manage-booking pages and GET /api/v4/shop. Every
// field has a default, so a shop works before anybody saved settings; a saved document is
// validated as a whole (a bad field changes nothing).
import { lockShopSettings, saveShopSettings, shopSettingsRow } from '../../db/repositories/shopManage.ts';
import { transaction } from '../../db/transaction.ts';
import type { Ctx } from '../context.ts';
import { forbidden, invalid } from '../errors.ts';
import { PROVIDER_NAMES, type ProviderName } from '../payments/provider.ts';
import { parseRule, type CancellationRule } from './cancellationRule.ts';

export interface ShopOffer {
  type: 'ticket' | 'event' | 'tour';
  id: number;
}

export interface ShopSettings {
  /** Shop title per language ({de, en, …}). */
  title: Record<string, string>;
  /** A media id (§23) or an https URL of the logo; null: none. */
  logoMediaId: number | null;
  logoUrl: string | null;
  /** The accent colour, #rrggbb. */
  colour: string;
  /** Free texts per language: welcome (home page), footer, confirmation. */
  texts: Record<string, { welcome?: string; footer?: string; confirmation?: string }>;
  termsUrl: string | null;
  privacyUrl: string | null;
  imprintUrl: string | null;
  /** Offers listed on the home page, in this order; empty: everything on the shop channel. */
  offers: ShopOffer[];
  /** The instance default for visitor cancellation: 'never' or 'Nh' (N hours before the visit). */
  cancellationDefault: string;
  /** Payment providers offered at checkout (among those the instance enables). */
  providers: ProviderName[];
  /** Websites allowed to embed the shop (origins, e.g. https://museum.example). */
  embedOrigins: string[];
}

export const DEFAULT_SHOP_SETTINGS: ShopSettings = {
  title: { de: 'Tickets', en: 'Tickets' },
  logoMediaId: null,
  logoUrl: null,
  colour: '#1f4e79',
  texts: {},
  termsUrl: null,
  privacyUrl: null,
  imprintUrl: null,
  offers: [],
  cancellationDefault: '24h',
  providers: [],
  embedOrigins: [],
};

const LANG = /^[a-z]{2}$/;
const MAX_TEXT = 4000;

function url(v: unknown, name: string, errors: string[]): string | null {
  if (v === null || v === undefined || v === '') return null;
  if (typeof v !== 'string' || v.length > 2000) { errors.push(`${name} must be a URL`); return null; }
  try {
    const u = new URL(v);
    if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new Error('scheme');
    return u.toString();
  } catch {
    errors.push(`${name} must be an http(s) URL`);
    return null;
  }
}

/** An origin a browser sends (scheme://host[:port]), or null: paths, wildcards and the like are refused. */
export function normaliseOrigin(v: string): string | null {
  try {
    const u = new URL(v.trim());
    if (u.protocol !== 'https:' && u.protocol !== 'http:') return null;
    if (u.username || u.password || (u.pathname !== '/' && u.pathname !== '') || u.search || u.hash) return null;
    return u.origin;
  } catch {
    return null;
  }
}

function texts(v: unknown, errors: string[]): ShopSettings['texts'] {
  if (v === undefined || v === null) return {};
  if (typeof v !== 'object' || Array.isArray(v)) { errors.push('texts must be an object per language'); return {}; }
  const out: ShopSettings['texts'] = {};
  for (const [lang, t] of Object.entries(v as Record<string, unknown>)) {
    if (!LANG.test(lang) || typeof t !== 'object' || t === null) { errors.push(`texts.${lang} is not a language's texts`); continue; }
    const entry: ShopSettings['texts'][string] = {};
    for (const k of ['welcome', 'footer', 'confirmation'] as const) {
      const s = (t as Record<string, unknown>)[k];
      if (s === undefined || s === null || s === '') continue;
      if (typeof s !== 'string' || s.length > MAX_TEXT) errors.push(`texts.${lang}.${k} must be text of at most ${MAX_TEXT} characters`);
      else entry[k] = s;
    }
    out[lang] = entry;
  }
  return out;
}

/** Validates a whole settings document (missing fields take their defaults). */
export function validateShopSettings(input: Partial<Record<keyof ShopSettings, unknown>>): ShopSettings {
  const errors: string[] = [];
  const d = DEFAULT_SHOP_SETTINGS;
  const title: Record<string, string> = {};
  const rawTitle = input.title ?? d.title;
  if (typeof rawTitle !== 'object' || rawTitle === null) errors.push('title must be an object per language');
  else for (const [lang, s] of Object.entries(rawTitle)) {
    if (!LANG.test(lang) || typeof s !== 'string' || s.length > 200) errors.push(`title.${lang} must be text of at most 200 characters`);
    else if (s.trim()) title[lang] = s.trim();
  }
  const colour = input.colour ?? d.colour;
  if (typeof colour !== 'string' || !/^#[0-9a-fA-F]{6}$/.test(colour)) errors.push('colour must be #rrggbb');
  const media = input.logoMediaId ?? null;
  if (media !== null && (!Number.isInteger(media) || (media as number) <= 0)) errors.push('logoMediaId must be a positive integer');
  const offers: ShopOffer[] = [];
  for (const o of Array.isArray(input.offers) ? input.offers : input.offers === undefined ? [] : [null]) {
    const x = o as Partial<ShopOffer> | null;
    if (!x || !['ticket', 'event', 'tour'].includes(String(x.type)) || !Number.isInteger(x.id) || (x.id as number) <= 0) {
      errors.push('offers must be a list of {type: ticket|event|tour, id}');
      break;
    }
    if (!offers.some((y) => y.type === x.type && y.id === x.id)) offers.push({ type: x.type as ShopOffer['type'], id: x.id as number });
  }
  const rule = input.cancellationDefault ?? d.cancellationDefault;
  if (typeof rule !== 'string' || !parseRule(rule)) errors.push("cancellationDefault must be 'never' or hours like '24h'");
  const providers = Array.isArray(input.providers) ? input.providers : input.providers === undefined ? [] : [null];
  const bad = providers.filter((p) => !(PROVIDER_NAMES as readonly unknown[]).includes(p));
  if (bad.length) errors.push(`providers must be among ${PROVIDER_NAMES.join(', ')}`);
  const origins: string[] = [];
  for (const o of Array.isArray(input.embedOrigins) ? input.embedOrigins : input.embedOrigins === undefined ? [] : [null]) {
    const n = typeof o === 'string' ? normaliseOrigin(o) : null;
    if (!n) { errors.push(`embedOrigins: ${String(o)} is not a website origin like https://museum.example`); continue; }
    if (!origins.includes(n)) origins.push(n);
  }
  const out: ShopSettings = {
    title,
    logoMediaId: media as number | null,
    logoUrl: url(input.logoUrl, 'logoUrl', errors),
    colour: String(colour).toLowerCase(),
    texts: texts(input.texts, errors),
    termsUrl: url(input.termsUrl, 'termsUrl', errors),
    privacyUrl: url(input.privacyUrl, 'privacyUrl', errors),
    imprintUrl: url(input.imprintUrl, 'imprintUrl', errors),
    offers,
    cancellationDefault: String(rule),
    providers: [...new Set(providers as ProviderName[])],
    embedOrigins: origins,
  };
  if (errors.length) throw invalid('shop settings could not be saved', errors);
  return out;
}

/** The stored settings over the defaults (a field a newer version added takes its default). */
function withDefaults(stored: Record<string, unknown> | null): ShopSettings {
  return { ...DEFAULT_SHOP_SETTINGS, ...((stored ?? {}) as Partial<ShopSettings>) };
}

export async function getShopSettings(ctx: Pick<Ctx, 'db'>): Promise<ShopSettings> {
  return withDefaults((await shopSettingsRow(ctx.db))?.settings ?? null);
}

/** The instance default rule, parsed. */
export async function defaultCancellationRule(ctx: Pick<Ctx, 'db'>): Promise<CancellationRule> {
  return parseRule((await getShopSettings(ctx)).cancellationDefault) ?? { kind: 'hours', hours: 24 };
}

/**
 * Replaces the settings (instance-wide: a caller with every right, i.e. an admin; the console
 * checks the role). Returns before and after for the audit entry.
 */
export async function updateShopSettings(ctx: Ctx, input: Partial<Record<keyof ShopSettings, unknown>>): Promise<{ before: ShopSettings; after: ShopSettings }> {
  const p = ctx.principal;
  if (p.kind !== 'account' || p.access !== 'user' || !p.rights.has('*')) throw forbidden('only an administrator may change the shop settings');
  const after = validateShopSettings(input);
  return transaction(ctx.db, async (tx) => {
    const before = withDefaults(await lockShopSettings(tx));
    await saveShopSettings(tx, after as unknown as Record<string, unknown>, ctx.clock.now());
    return { before, after };
  });
}
