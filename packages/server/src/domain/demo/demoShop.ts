// The demo's shop settings (docs/shop.md): a title and texts in both languages, legal links, the
// offers in a chosen order, the default cancellation rule, the demo payment page, and two
// products with their own rule (a family ticket cancellable until 48 hours before, a
// complimentary ticket never). Set once: a later seed keeps what an admin changed.
import { recordIdOfKey } from '../../db/repositories/imports/keys.ts';
import { saveShopSettings, setCancellationRule, shopSettingsRow } from '../../db/repositories/shopManage.ts';
import type { Ctx } from '../context.ts';
import { validateShopSettings, type ShopOffer } from '../shop/settings.ts';

const OFFERS: Array<[ShopOffer['type'], string]> = [
  ['ticket', 'demo-kh-regular'],
  ['ticket', 'demo-kh-reduced'],
  ['event', 'demo-late-view'],
  ['tour', 'demo-kh-highlights'],
  ['ticket', 'demo-sm-day'],
  ['ticket', 'demo-sm-family'],
];

export async function seedDemoShop(ctx: Pick<Ctx, 'db' | 'clock'>): Promise<void> {
  if (await shopSettingsRow(ctx.db)) return;
  const offers: ShopOffer[] = [];
  for (const [type, key] of OFFERS) {
    const id = await recordIdOfKey(ctx.db, type, key);
    if (id !== undefined) offers.push({ type, id });
  }
  const settings = validateShopSettings({
    title: { de: 'Tickets – Kunsthalle & Stadtmuseum', en: 'Tickets – Kunsthalle & City Museum' },
    colour: '#1f4e79',
    texts: {
      de: { welcome: 'Buchen Sie Ihren Besuch: Zeitfenster, Führungen und Veranstaltungen.', footer: 'Demo-Shop: es wird nichts berechnet.' },
      en: { welcome: 'Book your visit: timed entry, tours and events.', footer: 'Demo shop: nothing is charged.' },
    },
    termsUrl: 'https://example.org/terms',
    privacyUrl: 'https://example.org/privacy',
    imprintUrl: 'https://example.org/imprint',
    offers,
    cancellationDefault: '24h',
    providers: ['demo'],
    embedOrigins: ['http://localhost:8000'],
  });
  await saveShopSettings(ctx.db, settings as unknown as Record<string, unknown>, ctx.clock.now());
  const family = await recordIdOfKey(ctx.db, 'ticket', 'demo-sm-family');
  if (family !== undefined) await setCancellationRule(ctx.db, 'ticket', family, '48h');
  const staff = await recordIdOfKey(ctx.db, 'ticket', 'demo-kh-staff');
  if (staff !== undefined) await setCancellationRule(ctx.db, 'ticket', staff, 'never');
}
