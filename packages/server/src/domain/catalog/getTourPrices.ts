// GET /tours/:id/prices (go~mus §3.8): the price list of a tour as go~mus shapes it. Atrium has
// one price per tour, per group or per person (the pricing the orders domain charges, with the
// reseller price for resellers), no scale prices or surcharges, and no discounts; so the answer
// is one default price. The go~mus inputs (date, participants, language) are checked, not priced.
import type { Ctx } from '../context.ts';
import { DomainError, invalid } from '../errors.ts';
import { isValidDate } from '../time.ts';
import { getTour } from './getTour.ts';

export interface TourPricesInput {
  id: number;
  date?: string | undefined;
  participants?: number | undefined;
  language_id?: number | undefined;
}

export interface TourPrices {
  prices: Array<{ group: boolean; optional: boolean; price_cents: number; vat_pct: number }>;
  vat_pct: number;
  discount: number;
  tax_included: boolean;
}

export async function getTourPrices(ctx: Ctx, input: TourPricesInput): Promise<TourPrices> {
  if (input.date !== undefined && !isValidDate(input.date)) throw invalid('date must be a valid date (YYYY-MM-DD)');
  const tour = (await getTour(ctx, { id: input.id })) as {
    pricing: string;
    price_cents: number;
    vat_pct: number;
    tax_included: boolean;
    min_persons: number;
    max_persons: number;
    languages: Array<{ id: number }>;
  };
  const n = input.participants;
  if (n !== undefined && (n < tour.min_persons || n > tour.max_persons)) {
    throw invalid(`participants must be between ${tour.min_persons} and ${tour.max_persons}`);
  }
  if (input.language_id !== undefined && !tour.languages.some((l) => l.id === input.language_id)) {
    throw new DomainError('LANGUAGE_NOT_AVAILABLE', `tour ${input.id} is not offered in language ${input.language_id}`);
  }
  return {
    prices: [{ group: tour.pricing === 'group', optional: false, price_cents: tour.price_cents, vat_pct: tour.vat_pct }],
    vat_pct: tour.vat_pct,
    discount: 0,
    tax_included: tour.tax_included,
  };
}
