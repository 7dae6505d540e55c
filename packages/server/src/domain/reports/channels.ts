// Sales channels as people at a museum name them, in one place: the sales report, its CSV and the
// cash closing all label a channel through channelName(). The ledger's SQL (db/repositories/
// reports.ts) tells the box office (an order sold by a staff user) and OCTO bookings apart from
// the order's stored source; everything else is that source.
export type Channel = 'desk' | 'shop' | 'partner' | 'octo' | 'api';

/** The ledger's raw channel ('desk', 'octo' or the order's source) as a channel. */
export function channelOf(raw: string): Channel {
  if (raw === 'desk' || raw === 'shop' || raw === 'octo') return raw;
  // Orders of reseller accounts are stored as 'resellershop': a partner calling the API.
  if (raw === 'resellershop') return 'partner';
  return 'api';
}

const NAMES: Record<'de' | 'en', Record<Channel, string>> = {
  de: { desk: 'Kasse', shop: 'Onlineshop', partner: 'Partner (API)', octo: 'OCTO-Plattform', api: 'Eigene Schnittstelle (API)' },
  en: { desk: 'Box office', shop: 'Online shop', partner: 'Partner (API)', octo: 'OCTO platform', api: 'Own systems (API)' },
};

/** Channels where the account tells which one of several it was (the partner, the platform). */
const NAMED: readonly Channel[] = ['partner', 'octo', 'api'];

/** "Box office", "Partner (API): Reisebüro Sonne"; German unless the locale is English. */
export function channelName(channel: Channel, locale: string, account?: string | null): string {
  const name = NAMES[locale === 'en' ? 'en' : 'de'][channel];
  return account && NAMED.includes(channel) ? `${name}: ${account}` : name;
}
