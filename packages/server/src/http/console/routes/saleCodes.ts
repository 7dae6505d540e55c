// Promo codes and single-purpose vouchers in the box office's basket. The form carries the codes
// the basket takes (hidden fields) and one being typed; every step takes them again, one at a
// time, over the basket as it now stands, through the orders' own discount rule (quoteBasket), so
// the total shown is the total charged. A code that stops applying (its tickets removed, its last
// use taken by another sale) leaves the basket with a message; a typed one that does not apply
// stays in its field, marked, for the cashier to correct. Vouchers are named by their last four
// characters only, here as everywhere.
import type { FastifyRequest } from 'fastify';
import type { Ctx } from '../../../domain/context.ts';
import { DomainError } from '../../../domain/errors.ts';
import { codeLabel, MAX_CODES, quoteBasket, type BasketLine, type Quote } from '../../../domain/staff/deskBasket.ts';
import { domainMessage } from './errors.ts';
import type { FormError, SaleForm } from './saleForm.ts';

/** The steps that take what was typed into the code field (Enter in it presses Add). */
const TAKES_TYPED = new Set(['add', 'sell', 'code']);

export async function withCodes(req: FastifyRequest, ctx: Ctx, lines: BasketLine[], base: Quote, form: SaleForm, op: string): Promise<{ quote: Quote; codeNew: string; errors: FormError[] }> {
  const kept = form.codes.filter((_, i) => `uncode-${i}` !== op);
  const typed = TAKES_TYPED.has(op) && form.codeNew !== '' && !kept.includes(form.codeNew) ? form.codeNew : '';
  const errors: FormError[] = [];
  // What stays in the code field: a typed code not taken; on other steps (remove) whatever was there.
  const pending = (left: string) => (TAKES_TYPED.has(op) ? left : form.codeNew);
  if (typed && kept.length >= MAX_CODES) return { quote: base, codeNew: typed, errors: [{ key: 'desk.error.codes', vars: { max: MAX_CODES }, field: 'code_new' }] };
  if (lines.length === 0) {
    // Nothing to discount: codes added before their tickets are refused; taken ones leave with the lines.
    return { quote: base, codeNew: typed || pending(''), errors: typed ? [{ key: 'desk.error.codefirst', field: 'code_new' }] : [] };
  }
  let quote: Quote = { ...base, codes: [] };
  const taken: string[] = [];
  for (const code of typed ? [...kept, typed] : kept) {
    try {
      quote = await quoteBasket(ctx, lines, [...taken, code]);
      taken.push(code);
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      const m = domainMessage(req, err);
      const message = [m.message, ...m.details].join(' ');
      if (code === typed) errors.push({ key: 'desk.error.code', vars: { code: codeLabel(code), message }, field: 'code_new' });
      else errors.push({ key: 'desk.error.codedropped', vars: { code: codeLabel(code), message } });
    }
  }
  return { quote, codeNew: pending(typed && !taken.includes(typed) ? typed : ''), errors };
}
