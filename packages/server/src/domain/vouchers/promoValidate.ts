// The checks of a new promo code (docs/vouchers.md), all collected before anything is written:
// each kind takes its own values and refuses the others; dates run forwards; a companion ticket
// and a partner must exist.
import { accountById } from '../../db/repositories/accounts.ts';
import { ticketById } from '../capacity/catalog.ts';
import type { Ctx } from '../context.ts';
import { isValidDate } from '../time.ts';
import type { PromoInput } from './promoCodes.ts';

const VALUES = ['percent', 'amount_cents', 'cap_cents', 'buy_quantity', 'get_quantity', 'companion_ticket_id'] as const;

/** Which values each kind takes (anything else given is an error). */
const TAKES: Record<PromoInput['kind'], ReadonlyArray<(typeof VALUES)[number]>> = {
  percent: ['percent', 'cap_cents'],
  amount: ['amount_cents'],
  free_item: ['get_quantity', 'cap_cents'],
  buy_x_get_y: ['buy_quantity', 'get_quantity', 'percent', 'cap_cents'],
  free_companion: ['buy_quantity', 'companion_ticket_id', 'cap_cents'],
};

export async function promoErrors(ctx: Ctx, code: string, input: PromoInput): Promise<string[]> {
  const errors: string[] = [];
  if (!/^[0-9A-Z_]{3,40}$/.test(code)) errors.push('code must be 3 to 40 letters, digits or _');
  for (const k of VALUES) if (input[k] !== undefined && !TAKES[input.kind].includes(k)) errors.push(`${k} is not used by kind ${input.kind}`);
  const need = (k: (typeof VALUES)[number], what: string) => { if (input[k] === undefined) errors.push(`${k} is required for kind ${input.kind} (${what})`); };
  if (input.kind === 'percent') need('percent', '1 to 100');
  if (input.kind === 'amount') need('amount_cents', 'the amount off');
  if (input.kind === 'buy_x_get_y') { need('buy_quantity', 'X, the admissions paid'); need('get_quantity', 'Y, the admissions reduced'); }
  if (input.kind === 'free_companion') need('buy_quantity', 'paid admissions per free companion');
  // The ranges here too, not only in the API's schema: the console and the CLI reach this verb
  // without it, and a value the table's checks refuse must be a 422 naming it, never a 500.
  const within = (k: 'percent' | 'amount_cents' | 'cap_cents' | 'buy_quantity' | 'get_quantity' | 'min_quantity' | 'max_uses' | 'max_uses_per_email', lo: number, hi: number) => {
    const v = input[k];
    if (v !== undefined && (!Number.isInteger(v) || v < lo || v > hi)) errors.push(`${k} must be ${lo} to ${hi}`);
  };
  within('percent', 1, 100);
  within('amount_cents', 1, 100_000_000);
  within('cap_cents', 1, 100_000_000);
  within('buy_quantity', 1, 100);
  within('get_quantity', 1, 100);
  within('min_quantity', 1, 10_000);
  within('max_uses', 1, 100_000_000);
  within('max_uses_per_email', 1, 100_000);
  for (const k of ['visit_from', 'visit_until', 'sale_from', 'sale_until'] as const) {
    if (input[k] !== undefined && !isValidDate(input[k]!)) errors.push(`${k} must be a date YYYY-MM-DD`);
  }
  if (input.visit_from && input.visit_until && input.visit_until < input.visit_from) errors.push('visit_until must not be before visit_from');
  if (input.sale_from && input.sale_until && input.sale_until < input.sale_from) errors.push('sale_until must not be before sale_from');
  if (input.companion_ticket_id !== undefined && !(await ticketById(ctx, ctx.db, input.companion_ticket_id))) errors.push(`companion_ticket_id: ticket ${input.companion_ticket_id} not found`);
  if (input.partner_account_id !== undefined && !(await accountById(ctx.db, input.partner_account_id))) errors.push(`partner_account_id: account ${input.partner_account_id} not found`);
  return errors;
}
