// A bookable ticket as an OCTO Product (docs/octo.md, "Mapping"): a time-slot ticket is
// START_TIME, a day ticket OPENING_HOURS; one option DEFAULT; one unit, the ticket's price
// category, with the ticket's per-booking limits. octo/pricing and octo/content add their fields.
import type { TicketRow } from '../../domain/capacity/catalog.ts';
import { priceFor } from '../../domain/catalog/visibility.ts';
import type { Principal } from '../../domain/principal.ts';
import { lineAmounts } from '../../domain/pricing/vat.ts';
import type { Applied } from './capabilities.ts';
import { OPTION_ID, isTimeSlot, productId, startTimes, unitIdOf, unitTypeOf } from './ids.ts';
import { textIn } from './language.ts';

export interface View {
  applied: Applied;
  lang: string;
  currency: string;
  principal: Principal;
  cutoffHours: number;
  /** This server's origin as the platform reached it: OCTO media URLs must be absolute. */
  origin: string;
}

/** octo/content media: the record's picture (docs/api-contract.md §23) as its cover, or none. */
export function mediaOf(picture: Record<string, string | null> | null | undefined, v: View) {
  const src = picture?.detail ?? picture?.original;
  if (!picture || !src) return [];
  return [{ src: `${v.origin}${src}`, type: 'image/jpeg', rel: 'COVER', title: picture.title ?? null, caption: picture.description ?? null, copyright: picture.copyright_info ?? null }];
}

export const DELIVERY_FORMATS = ['QRCODE', 'PDF_URL'] as const;
export const DELIVERY_METHODS = ['TICKET', 'VOUCHER'] as const;

/** OCTO Pricing of `cents` charged at the ticket's VAT: retail incl. tax, net = the reseller's price. */
export function pricingOf(t: Pick<TicketRow, 'priceCents' | 'resellerPriceCents' | 'vatPct' | 'taxIncluded'>, v: View, quantity = 1) {
  const gross = (cents: number) => lineAmounts({ total_cents: cents * quantity, vat_pct: t.vatPct, tax_included: t.taxIncluded });
  const retail = gross(t.priceCents);
  const net = gross(priceFor(v.principal, t));
  return {
    original: retail.gross_cents,
    retail: retail.gross_cents,
    net: net.gross_cents,
    currency: v.currency,
    currencyPrecision: 2,
    includedTaxes: t.vatPct > 0 ? [{ name: `VAT ${t.vatPct}%`, retail: retail.vat_cents, original: retail.vat_cents, net: net.vat_cents }] : [],
  };
}

function unitOf(t: TicketRow, v: View) {
  const title = textIn(t.title, v.lang);
  return {
    id: unitIdOf(t),
    internalName: title,
    reference: String(t.id),
    type: unitTypeOf(t),
    restrictions: { minAge: 0, maxAge: 100, idRequired: false, minQuantity: null, maxQuantity: null, paxCount: 1, accompaniedBy: [] },
    requiredContactFields: [],
    ...(v.applied.pricing ? { pricingFrom: [pricingOf(t, v)] } : {}),
    ...(v.applied.content ? { title, shortDescription: textIn(t.subTitle, v.lang) || '', features: [] } : {}),
  };
}

function optionOf(t: TicketRow, v: View) {
  return {
    id: OPTION_ID,
    default: true,
    internalName: 'Default',
    reference: null,
    availabilityLocalStartTimes: startTimes(t),
    cancellationCutoff: `${v.cutoffHours} hours`,
    cancellationCutoffAmount: v.cutoffHours,
    cancellationCutoffUnit: 'hour',
    requiredContactFields: [],
    restrictions: { minUnits: t.minPersons, maxUnits: t.maxPersons },
    units: [unitOf(t, v)],
    ...(v.applied.content
      ? { title: textIn(t.title, v.lang), shortDescription: textIn(t.subTitle, v.lang) || '', description: '', features: [], faqs: [], media: mediaOf(t.picture, v), locations: [], durationMinutesFrom: t.entryDuration ?? null, durationMinutesTo: null, commentary: [] }
      : {}),
  };
}

export function productOf(t: TicketRow, v: View) {
  const title = textIn(t.title, v.lang);
  return {
    id: productId(t.id),
    internalName: title,
    reference: String(t.id),
    locale: v.lang,
    timeZone: t.zone,
    allowFreesale: false,
    instantConfirmation: true,
    instantDelivery: true,
    availabilityRequired: true,
    availabilityType: isTimeSlot(t) ? 'START_TIME' : 'OPENING_HOURS',
    deliveryFormats: [...DELIVERY_FORMATS],
    deliveryMethods: [...DELIVERY_METHODS],
    redemptionMethod: 'DIGITAL',
    options: [optionOf(t, v)],
    ...(v.applied.pricing ? { defaultCurrency: v.currency, availableCurrencies: [v.currency], pricingPer: 'UNIT' } : {}),
    ...(v.applied.content
      ? {
          title,
          shortDescription: textIn(t.subTitle, v.lang) || '',
          description: textIn(t.description, v.lang) || '',
          features: [],
          faqs: [],
          media: mediaOf(t.picture, v),
          locations: [],
          categoryLabels: ['museums'],
          durationMinutesFrom: t.entryDuration ?? null,
          durationMinutesTo: null,
          commentary: [],
        }
      : {}),
  };
}
