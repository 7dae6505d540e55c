// The box-office sale form as data: what the cashier typed (kept on every re-render, also after
// an error), the basket lines it carries, and the checks worded for the cashier (message keys).
import type { FastifyRequest } from 'fastify';
import { addLine, MAX_CODES, parseLine, parseMoney, type BasketLine } from '../../../domain/staff/deskBasket.ts';
import type { DeskOffer } from '../../../domain/staff/deskSlots.ts';
import { GIFT_CARD_LIMITS, giftCardAmountProblem } from '../../../domain/vouchers/giftCards.ts';
import { field } from './kit.ts';

export interface SaleForm {
  key: string;
  date: string;
  time: string;
  lines: BasketLine[];
  /** Typed quantities not yet added, by input name (q-T-<ticket>, q-E-<event date>, q-U-<tour>, q-V-<voucher's ticket>). */
  qty: Record<string, string>;
  /** A tour's chosen start and language, by input name (ts-<tour>, tl-<tour>). */
  pick: Record<string, string>;
  payment: string;
  partMethod: string;
  partAmount: string;
  given: string;
  name: string;
  surname: string;
  email: string;
  delivery: string;
  /** A gift card to add: a free amount (the value buttons carry theirs in `op`), PDF language, quantity. */
  cardAmount: string;
  cardLanguage: string;
  cardQty: string;
  /** Promo codes and vouchers the basket takes (hidden fields), and the one being typed. */
  codes: string[];
  codeNew: string;
}

export interface FormError { key: string; vars?: Record<string, string | number>; field?: string }

function all(obj: unknown, name: string): string[] {
  const v = (obj as Record<string, unknown> | undefined)?.[name];
  return [v].flat().filter((x): x is string => typeof x === 'string').slice(0, 30);
}

export function readForm(body: unknown, key: string, date: string): SaleForm {
  const qty: Record<string, string> = {};
  const pick: Record<string, string> = {};
  for (const [k, v] of Object.entries((body as Record<string, unknown>) ?? {})) {
    if (/^q-[TEUV]-\d{1,10}$/.test(k) && typeof v === 'string' && v.trim() !== '') qty[k] = v.trim().slice(0, 4);
    if (/^t[sl]-\d{1,10}$/.test(k) && typeof v === 'string') pick[k] = v.trim().slice(0, 40);
  }
  return {
    key: field(body, 'key', 64) || key,
    date: field(body, 'date', 10) || date,
    time: field(body, 'time', 40),
    lines: all(body, 'line').map(parseLine).filter((l): l is BasketLine => l !== null),
    qty,
    pick,
    payment: field(body, 'payment', 10) || 'cash',
    partMethod: field(body, 'part_method', 10) || 'card',
    partAmount: field(body, 'part_amount', 12),
    given: field(body, 'given', 12),
    name: field(body, 'name', 100),
    surname: field(body, 'surname', 100),
    email: field(body, 'email', 254),
    delivery: field(body, 'delivery', 10) || 'print',
    cardAmount: field(body, 'card_amount', 12),
    cardLanguage: field(body, 'card_lang', 5),
    cardQty: field(body, 'card_qty', 4),
    codes: all(body, 'code').map((c) => c.trim().slice(0, 64)).filter((c) => c !== '').slice(0, MAX_CODES),
    codeNew: field(body, 'code_new', 64),
  };
}

export const emptyForm = (key: string, date: string): SaleForm => readForm({}, key, date);

/** The typed quantities as basket lines (the chosen time for timed tickets), or what is wrong. */
export function typedLines(form: SaleForm, offer: DeskOffer, timeText: (d: Date) => string): { lines: BasketLine[]; errors: FormError[] } {
  const out: BasketLine[] = [];
  const errors: FormError[] = [];
  for (const [name, raw] of Object.entries(form.qty)) {
    if (!/^\d{1,3}$/.test(raw) || Number(raw) < 0 || Number(raw) > 100) {
      errors.push({ key: 'desk.error.qty', field: name });
      continue;
    }
    const quantity = Number(raw);
    if (quantity === 0) continue;
    const [, kind, idText] = name.split('-');
    const id = Number(idText);
    if (kind === 'V') {
      out.push({ kind: 'voucher', id, time: '', quantity });
      continue;
    }
    if (kind === 'E') {
      out.push({ kind: 'event', id, time: '', quantity });
      continue;
    }
    if (kind === 'U') {
      const tour = tourLine(form, offer, id, quantity, name);
      if ('key' in tour) errors.push(tour);
      else out.push(tour);
      continue;
    }
    const t = offer.tickets.find((x) => x.id === id);
    const slot = t?.timed ? t.slots.find((s) => s.start.toISOString() === form.time) : t?.slots[0];
    if (!t || !slot) {
      errors.push({ key: 'desk.error.noslot', vars: { title: t?.title ?? String(id), time: form.time ? timeText(new Date(form.time)) : '–' }, field: name });
      continue;
    }
    out.push({ kind: 'ticket', id, time: slot.start.toISOString(), quantity });
  }
  return { lines: out, errors };
}

/** A tour line from its row: the start and language chosen must be ones the offer lists. */
function tourLine(form: SaleForm, offer: DeskOffer, id: number, quantity: number, name: string): BasketLine | FormError {
  const tour = offer.tours.find((x) => x.id === id);
  const start = tour?.starts.find((s) => s.toISOString() === form.pick[`ts-${id}`]);
  const language = tour?.languages.find((l) => String(l.id) === form.pick[`tl-${id}`]);
  if (!tour || !start) return { key: 'desk.error.tourstart', vars: { title: tour?.title ?? String(id) }, field: `ts-${id}` };
  if (!language) return { key: 'desk.error.tourlanguage', vars: { title: tour.title }, field: `tl-${id}` };
  return { kind: 'tour', id, time: start.toISOString(), quantity, languageId: language.id };
}

/**
 * The gift card asked for: a value button (`op` card-<cents>) or, with Add or Sell, a typed free
 * amount within the domain's limits (giftCardAmountProblem), worded for the cashier.
 */
export function cardLine(form: SaleForm, op: string, fallbackLanguage: string): { lines: BasketLine[]; errors: FormError[] } {
  const button = /^card-(\d{1,7})$/.exec(op);
  const typed = button ? null : op === 'add' || op === 'sell' ? parseMoney(form.cardAmount) : null;
  if (Number.isNaN(typed)) return { lines: [], errors: [{ key: 'desk.error.amount', field: 'card_amount' }] };
  const cents = button ? Number(button[1]) : typed;
  if (cents === null) return { lines: [], errors: [] };
  const { minCents, maxCents } = GIFT_CARD_LIMITS;
  if (giftCardAmountProblem(cents)) return { lines: [], errors: [{ key: 'desk.error.cardamount', vars: { min: minCents / 100, max: maxCents / 100 }, field: 'card_amount' }] };
  const quantity = form.cardQty === '' ? 1 : Number(form.cardQty);
  if (!/^\d{1,2}$/.test(form.cardQty || '1') || quantity < 1) return { lines: [], errors: [{ key: 'desk.error.qty', field: 'card_qty' }] };
  return { lines: [{ kind: 'giftcard', id: cents, time: '', quantity, language: /^[a-z]{2}(?:-[A-Z]{2})?$/.test(form.cardLanguage) ? form.cardLanguage : fallbackLanguage }], errors: [] };
}

export const mergeLines = (base: BasketLine[], extra: BasketLine[]) => extra.reduce(addLine, base);

/** Money fields: cents, or an error naming the field. */
export function money(form: SaleForm): { part: number | null; given: number | null; errors: FormError[] } {
  const part = parseMoney(form.partAmount);
  const given = parseMoney(form.given);
  const errors: FormError[] = [];
  if (Number.isNaN(part)) errors.push({ key: 'desk.error.amount', field: 'part_amount' });
  if (Number.isNaN(given)) errors.push({ key: 'desk.error.amount', field: 'given' });
  return { part: Number.isNaN(part) ? null : part, given: Number.isNaN(given) ? null : given, errors };
}

export const requestKey = (req: FastifyRequest) => field(req.body, 'op', 20);
