// The shop settings page (admins): title, logo, colour, texts per language, legal links, the
// offers listed and their order, the default cancellation rule, the payment providers offered
// and the websites allowed to embed the shop. The form is turned into the settings document
// here; the domain validates it as a whole and the change is audited with before and after.
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { audited } from '../../../domain/audit/audited.ts';
import { getShopSettings, updateShopSettings, type ShopSettings } from '../../../domain/shop/settings.ts';
import { paymentProviders } from '../../../providers/payments/index.ts';
import { translator } from '../i18n.ts';
import type { ConsoleDeps } from './deps.ts';
import { consoleRoute, field } from './kit.ts';
import { renderPage, seeOther } from './render.ts';

const LANGS = ['de', 'en'] as const;

function lines(text: string): string[] {
  return text.split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
}

/** The form's fields as a settings document (unparseable parts are passed on for the domain to refuse). */
function fromForm(body: unknown): Partial<Record<keyof ShopSettings, unknown>> {
  const f = (name: string, max = 4000) => field(body, name, max);
  const all = (name: string) => {
    const v = (body as Record<string, unknown> | undefined)?.[name];
    return (Array.isArray(v) ? v : v === undefined ? [] : [v]).filter((x): x is string => typeof x === 'string');
  };
  const media = f('logo_media_id', 12);
  const hours = f('cancellation_hours', 6);
  return {
    title: Object.fromEntries(LANGS.map((l) => [l, f(`title_${l}`, 300)])),
    colour: f('colour', 20),
    logoUrl: f('logo_url', 2000) || null,
    logoMediaId: media === '' ? null : /^\d{1,9}$/.test(media) ? Number(media) : -1,
    texts: Object.fromEntries(LANGS.map((l) => [l, { welcome: f(`welcome_${l}`), footer: f(`footer_${l}`) }])),
    termsUrl: f('terms_url', 2000) || null,
    privacyUrl: f('privacy_url', 2000) || null,
    imprintUrl: f('imprint_url', 2000) || null,
    offers: lines(f('offers', 20000)).map((l) => {
      const m = /^(ticket|event|tour)\s*[:#]\s*(\d{1,9})$/i.exec(l);
      return m ? { type: m[1]!.toLowerCase(), id: Number(m[2]) } : null;
    }),
    cancellationDefault: f('cancellation', 10) === 'never' ? 'never' : `${hours}h`,
    providers: all('providers'),
    embedOrigins: lines(f('embed_origins', 20000)),
  };
}

export const shopSettingsPages = (deps: ConsoleDeps): FastifyPluginAsync => async (app) => {
  const page = async (req: FastifyRequest, settings: ShopSettings) => ({
    title: translator(req.consoleLocale)('shop.title'),
    s: settings,
    langs: LANGS,
    hours: settings.cancellationDefault === 'never' ? '24' : settings.cancellationDefault.replace(/h$/, ''),
    enabled: paymentProviders(deps.config).enabled,
  });

  consoleRoute(app, { method: 'GET', url: '/shop', action: 'shop.settings' }, async (req, reply) =>
    renderPage(req, reply, 'shop/settings', await page(req, await getShopSettings(req.staffCtx))));

  consoleRoute(app, { method: 'POST', url: '/shop', action: 'shop.settings', invalidatesCatalog: true }, async (req, reply) => {
    await audited(req.staffCtx, (ctx) => updateShopSettings(ctx, fromForm(req.body)), (r) => ({
      action: 'shop.settings.update', entityType: 'shop_settings', entityId: 1, before: r.before, after: r.after,
    }));
    return seeOther(reply, '/console/shop', 'shopsaved');
  });
};
