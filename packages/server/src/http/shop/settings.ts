// The shop's settings (title, logo, colours, texts, terms and privacy links, the payment
// providers offered), read through this ONE function. For now it answers defaults built from the
// instance's configuration; the settings verb of the console replaces the body, nothing else.
import type { Config } from '../../config.ts';
import { paymentProviders } from '../../providers/payments/index.ts';
import type { ProviderName } from '../../domain/payments/provider.ts';

export interface ShopSettings {
  title: string;
  /** Same-origin path or data: URL of the logo; null shows the title only. */
  logoUrl: string | null;
  /** CSS colours, validated (#rgb or #rrggbb) so they can be written into the stylesheet link. */
  colours: { primary: string; background: string };
  texts: { de: { intro: string }; en: { intro: string } };
  termsUrl: string | null;
  privacyUrl: string | null;
  imprintUrl: string | null;
  /** Providers the visitor may choose, in order: hosted ones only (the visitor pays on a page). */
  providers: ProviderName[];
}

const HOSTED: ProviderName[] = ['stripe', 'mollie', 'demo'];

export async function shopSettings(config: Config): Promise<ShopSettings> {
  const enabled = paymentProviders(config).enabled;
  return {
    title: config.invoice.issuer.name || 'Atrium',
    logoUrl: null,
    colours: { primary: '#1d4e89', background: '#ffffff' },
    texts: { de: { intro: '' }, en: { intro: '' } },
    termsUrl: null,
    privacyUrl: null,
    imprintUrl: null,
    providers: HOSTED.filter((p) => enabled.includes(p)),
  };
}
