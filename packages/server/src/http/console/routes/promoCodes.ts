// Promo codes in the console: the list with uses and a switch to turn a code off (and on again),
// and the form that creates one through the domain verb (percent with an optional cap, or an
// amount; products, channels, sale and visit dates, minimum quantity, total and per-e-mail uses).
// A refused form is shown again with everything typed kept and the reasons above it.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../../../domain/errors.ts';
import { roleMay } from '../../../domain/staff/permissions.ts';
import { createPromoCode, listPromoCodes, PROMO_CHANNELS, setPromoCodeActive, type PromoChannel, type PromoInput } from '../../../domain/vouchers/promoCodes.ts';
import { translator, type Translate } from '../i18n.ts';
import type { ConsoleDeps } from './deps.ts';
import { domainMessage } from './errors.ts';
import { consoleRoute, field, intParam } from './kit.ts';
import { renderPage, seeOther } from './render.ts';
import { optionalInt, optionalMoney } from './voucherForms.ts';

const TEXT = ['code', 'kind', 'percent', 'amount', 'cap', 'ticket_ids', 'event_ids', 'tour_ids', 'sale_from', 'sale_until', 'visit_from', 'visit_until', 'min_quantity', 'max_uses', 'max_uses_per_email'] as const;
type PromoForm = Record<(typeof TEXT)[number], string> & { channels: string[] };

function readPromoForm(body: unknown): PromoForm {
  const f = { ...Object.fromEntries(TEXT.map((k) => [k, field(body, k, 60)])), channels: [] } as unknown as PromoForm;
  const ch = (body as Record<string, unknown> | undefined)?.channels;
  f.channels = [ch].flat().filter((c): c is string => typeof c === 'string' && (PROMO_CHANNELS as readonly string[]).includes(c));
  if (f.kind !== 'amount') f.kind = 'percent';
  return f;
}

const emptyForm = (): PromoForm => readPromoForm({});

/** The form as the verb's input, or the console's own words for what is not a number at all. */
function toInput(f: PromoForm, t: Translate): { input: PromoInput; errors: string[] } {
  const errors: string[] = [];
  const num = (k: keyof PromoForm, v: number | undefined) => {
    if (v !== undefined && Number.isNaN(v)) errors.push(t('promo.error.number', { field: t(`promo.${k}`) }));
    return v !== undefined && !Number.isNaN(v) ? v : undefined;
  };
  const ids = (k: 'ticket_ids' | 'event_ids' | 'tour_ids') => {
    const parts = f[k].split(/[\s,;]+/).filter(Boolean);
    if (parts.some((p) => intParam(p) === null)) errors.push(t('promo.error.ids', { field: t(`promo.${k}`) }));
    return parts.map((p) => intParam(p)).filter((n): n is number => n !== null);
  };
  const set = <K extends keyof PromoInput>(o: PromoInput, k: K, v: PromoInput[K] | undefined) => { if (v !== undefined && v !== '') o[k] = v; };
  const input: PromoInput = { code: f.code, kind: f.kind === 'amount' ? 'amount' : 'percent' };
  if (input.kind === 'percent') {
    set(input, 'percent', num('percent', optionalInt(f.percent, 1000)));
    set(input, 'cap_cents', num('cap', optionalMoney(f.cap)));
  } else set(input, 'amount_cents', num('amount', optionalMoney(f.amount)));
  for (const k of ['ticket_ids', 'event_ids', 'tour_ids'] as const) { const v = ids(k); if (v.length) input[k] = v; }
  if (f.channels.length) input.channels = f.channels as PromoChannel[];
  for (const k of ['sale_from', 'sale_until', 'visit_from', 'visit_until'] as const) set(input, k, f[k] || undefined);
  for (const k of ['min_quantity', 'max_uses', 'max_uses_per_email'] as const) set(input, k, num(k, optionalInt(f[k])));
  return { input, errors };
}

async function showList(req: FastifyRequest, reply: FastifyReply, form: PromoForm, errors: string[] = [], status = 200) {
  const codes = await listPromoCodes(req.staffCtx, { limit: 200 });
  return renderPage(req, reply, 'promo/index', {
    title: translator(req.consoleLocale)('promo.title'), codes, form, errors, channels: PROMO_CHANNELS,
    mayEdit: roleMay(req.staffCtx.staff.role, 'promo.edit'),
  }, status);
}

export const promoCodePages = (_deps: ConsoleDeps): FastifyPluginAsync => async (app) => {
  consoleRoute(app, { method: 'GET', url: '/promo-codes', action: 'promo.view' }, async (req, reply) => showList(req, reply, emptyForm()));

  consoleRoute(app, { method: 'POST', url: '/promo-codes', action: 'promo.edit' }, async (req, reply) => {
    const form = readPromoForm(req.body);
    const { input, errors } = toInput(form, translator(req.consoleLocale));
    if (errors.length) return showList(req, reply, form, errors, 422);
    try {
      await createPromoCode(req.staffCtx, input);
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      const m = domainMessage(req, err);
      return showList(req, reply, form, [m.message, ...m.details], 422);
    }
    return seeOther(reply, '/console/promo-codes', 'promocreated');
  });

  consoleRoute(app, { method: 'POST', url: '/promo-codes/:id/active', action: 'promo.edit' }, async (req, reply) => {
    const id = intParam((req.params as { id: string }).id);
    if (id === null) throw new DomainError('NOT_FOUND', 'promo code not found');
    const on = field(req.body, 'active', 1) === '1';
    await setPromoCodeActive(req.staffCtx, id, on);
    return seeOther(reply, '/console/promo-codes', on ? 'promoon' : 'promooff');
  });
};
