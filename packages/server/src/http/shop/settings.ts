// The shop's settings as its pages use them, read through this ONE function from the settings an
// admin edits in the console (src/domain/shop/settings.ts, docs/shop.md): the title and texts in
// the visitor's language, the accent colour, the links, the embedding websites and the payment
// providers offered (hosted ones only: the visitor pays on a page, among those the instance enables).
import type { Ctx } from '../../domain/context.ts';
import type { ProviderName } from '../../domain/payments/provider.ts';
import { getShopSettings } from '../../domain/shop/settings.ts';
import { paymentProviders } from '../../providers/payments/index.ts';
import { readAfresh, type Keep } from './offers.ts';

export interface ShopSettings {
  title: string;
  /** https URL of the logo; null shows the title only. */
  logoUrl: string | null;
  /** CSS colours, validated (#rrggbb) when saved. */
  colours: { primary: string; background: string };
  texts: { de: { intro: string }; en: { intro: string } };
  termsUrl: string | null;
  privacyUrl: string | null;
  imprintUrl: string | null;
  /** Providers the visitor may choose, in order. */
  providers: ProviderName[];
  /** Websites allowed to frame the shop (frame-ancestors). */
  embedOrigins: string[];
}

const HOSTED: ProviderName[] = ['stripe', 'mollie', 'demo'];

/** `keep`: the shop's catalogue cache (plugin.ts); a settings change clears it like a catalogue change. */
export async function shopSettings(ctx: Pick<Ctx, 'db' | 'config'>, locale: 'de' | 'en' = 'de', keep: Keep = readAfresh): Promise<ShopSettings> {
  const s = await keep('settings', () => getShopSettings(ctx));
  const enabled = paymentProviders(ctx.config).enabled;
  const hosted = HOSTED.filter((p) => enabled.includes(p));
  const chosen = s.providers.length ? s.providers.filter((p) => hosted.includes(p)) : hosted;
  const intro = (l: string) => s.texts[l]?.welcome ?? '';
  return {
    title: s.title[locale] ?? s.title.en ?? s.title.de ?? (ctx.config.invoice.issuer.name || 'Atrium'),
    logoUrl: s.logoUrl,
    colours: { primary: s.colour, background: '#ffffff' },
    texts: { de: { intro: intro('de') }, en: { intro: intro('en') } },
    termsUrl: s.termsUrl,
    privacyUrl: s.privacyUrl,
    imprintUrl: s.imprintUrl,
    providers: chosen,
    embedOrigins: s.embedOrigins,
  };
}
