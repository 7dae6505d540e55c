// Rule checks and normalisation for what is sold: tickets, events with their dates, tours.
import { isoInZone, parseTimestamp } from '../time.ts';
import { checkDate, parseClock, type Issues, type Plan } from './plan.ts';
import { ref, type Refs } from './rules.ts';
import { checkRecurrence } from './rules-recurrence.ts';
import type { CatalogueDocument, EventDoc, TicketDoc, TourDoc } from './schema.ts';
import type { Path } from './source.ts';

type Doc = Required<CatalogueDocument>;
type Product = Partial<Pick<TicketDoc, 'sales_channels' | 'resellers' | 'price_cents' | 'reseller_price_cents' | 'vat_pct' | 'tax_included' | 'active'>>;

/** Channels, resellers and prices, shared by all three product kinds. */
function selling(issues: Issues, path: Path, plan: Plan, p: Product) {
  const channels = p.sales_channels ?? ['shop', 'reseller'];
  if (new Set(channels).size !== channels.length) issues.add([...path, 'sales_channels'], 'lists a channel twice');
  const resellers = p.resellers ?? [];
  if (resellers.length && !channels.includes('reseller')) {
    issues.add([...path, 'resellers'], 'resellers are named but the "reseller" sales channel is not enabled');
  }
  resellers.forEach((id, j) => plan.resellerRefs.push({ path: [...path, 'resellers', j], id }));
  return {
    priceCents: p.price_cents ?? 0,
    resellerPriceCents: p.reseller_price_cents ?? null,
    vatPct: p.vat_pct ?? 0,
    taxIncluded: p.tax_included ?? true,
    salesChannels: channels,
    resellerAccountIds: resellers,
    active: p.active ?? true,
  };
}

function described(d: { title: Record<string, string>; sub_title?: Record<string, string> | null; description?: Record<string, string> | null }) {
  return { title: d.title, subTitle: d.sub_title ?? null, description: d.description ?? null };
}

/** A clock or duration field; an invalid one is reported and gives null (no follow-up errors). */
function clock(issues: Issues, path: Path, v: string | number, max: number, what: string): number | null {
  const n = parseClock(v, max);
  if (n === null) issues.add(path, `${JSON.stringify(v)} is not ${what}`);
  return n;
}

function checkTicket(t: TicketDoc, path: Path, issues: Issues, plan: Plan, refs: Refs): void {
  ref(issues, [...path, 'museum'], 'museum', t.museum, refs.museumZone);
  const slot = t.ticket_type === 'time_slot';
  (t.quotas ?? []).forEach((q, j) => {
    const at = [...path, 'quotas', j];
    if (!ref(issues, at, 'quota', q, refs.quotaMuseum)) return;
    if (refs.quotaMuseum.get(q) !== t.museum) issues.add(at, `quota "${q}" belongs to another museum`);
    if (!slot && refs.quotaKind.get(q) === 'slot') {
      issues.add(at, `quota "${q}" counts per time slot, but a day ticket (ticket_type normal) has no slots: use a day quota`);
    }
  });
  if (new Set(t.quotas ?? []).size !== (t.quotas ?? []).length) issues.add([...path, 'quotas'], 'lists a quota twice');
  (t.exhibitions ?? []).forEach((e, j) => {
    const at = [...path, 'exhibitions', j];
    if (ref(issues, at, 'exhibition', e, refs.exhibitionMuseum) && refs.exhibitionMuseum.get(e) !== t.museum) {
      issues.add(at, `exhibition "${e}" belongs to another museum`);
    }
  });
  const first = clock(issues, [...path, 'first_entry'], t.first_entry, 1439, 'a time of day: use "HH:MM" or minutes');
  const last = clock(issues, [...path, 'last_entry'], t.last_entry, 1439, 'a time of day: use "HH:MM" or minutes');
  if (first !== null && last !== null && last < first) issues.add([...path, 'last_entry'], 'last_entry must not be before first_entry');
  let duration: number | null = null;
  if (slot) {
    if (t.entry_duration === undefined || t.entry_duration === null) {
      issues.add(path, 'a time-slot ticket needs entry_duration (the slot length)');
    } else {
      duration = clock(issues, [...path, 'entry_duration'], t.entry_duration, 720, 'a slot length between 5 minutes and 12 hours');
      if (duration !== null && duration < 5) issues.add([...path, 'entry_duration'], 'the slot length must be at least 5 minutes');
    }
  } else if (t.entry_duration !== undefined && t.entry_duration !== null) {
    issues.add([...path, 'entry_duration'], 'a day ticket (ticket_type normal) has no entry_duration');
  }
  const minP = t.min_persons ?? 1;
  const maxP = t.max_persons ?? 100;
  if (maxP < minP) issues.add([...path, 'max_persons'], 'max_persons must not be below min_persons');
  const from = checkDate(issues.at(path), ['valid_from'], t.valid_from);
  const until = checkDate(issues.at(path), ['valid_until'], t.valid_until);
  if (from && until && until < from) issues.add([...path, 'valid_until'], 'valid_until must not be before valid_from');
  plan.tickets.push({
    key: t.key,
    museum: t.museum,
    exhibitions: t.exhibitions ?? [],
    quotas: t.quotas ?? [],
    values: {
      ...described(t),
      ...selling(issues, path, plan, t),
      ticketType: t.ticket_type,
      discount: t.discount ?? 0,
      firstEntry: first ?? 0,
      lastEntry: last ?? 0,
      entryDuration: duration,
      minPersons: minP,
      maxPersons: maxP,
      attendees: t.attendees ?? 'none',
      validFrom: from,
      validUntil: until,
    },
  });
}

function checkEvent(e: EventDoc, path: Path, issues: Issues, plan: Plan, refs: Refs, today: string): void {
  ref(issues, [...path, 'museum'], 'museum', e.museum, refs.museumZone);
  if (e.exhibition) ref(issues, [...path, 'exhibition'], 'exhibition', e.exhibition, refs.exhibitionMuseum);
  const zone = refs.museumZone.get(e.museum) ?? 'UTC';
  const seen = new Set<string>();
  const dates = (e.dates ?? []).map((d, j) => {
    const at = [...path, 'dates', j];
    const recurrence = d.recurrence ? checkRecurrence(issues, [...at, 'recurrence'], d, zone, today) : undefined;
    let start: Date | null = null;
    if (d.start_at !== undefined) {
      start = parseTimestamp(d.start_at, zone);
      if (!start) issues.add([...at, 'start_at'], `"${d.start_at}" is not a date-time: use e.g. 2026-05-01T14:00 (museum time)`);
    } else if (!d.recurrence) issues.add(at, 'a date needs start_at, or a recurrence for many dates');
    // Without an explicit key a date is identified by its start, so re-importing the file
    // updates it, and moving a date creates a new one (bookings stay with the old one). Each date
    // of a recurrence is keyed the same way when it is written.
    const key = d.key ?? (start ? isoInZone(start, zone) : `#${j}`);
    if (!d.recurrence && seen.has(key)) issues.add([...at, d.key ? 'key' : 'start_at'], `duplicate date "${key}" in this event`);
    seen.add(key);
    if (d.language) ref(issues, [...at, 'language'], 'language', d.language, refs.languages);
    const seatsMin = d.seats_min ?? 1;
    if (d.seats_max < seatsMin) issues.add([...at, 'seats_max'], 'seats_max must not be below seats_min');
    return {
      key,
      language: d.language ?? null,
      ...(recurrence ? { recurrence } : {}),
      values: {
        startAt: start ?? new Date(0),
        duration: d.duration === undefined ? 60 : (clock(issues, [...at, 'duration'], d.duration, 1440, 'a duration: use minutes or "HH:MM"') ?? 0),
        seatsMin,
        seatsMax: d.seats_max,
        maxPerRegistration: d.max_per_registration ?? null,
        active: d.active ?? true,
      },
    };
  });
  plan.events.push({
    key: e.key,
    museum: e.museum,
    exhibition: e.exhibition ?? null,
    category: categoryName(e.category),
    values: { ...described(e), ...selling(issues, path, plan, e), featured: e.featured ?? false },
    dates,
  });
}

/** The file's `category`: a name or `{name}`; an empty name is none, as in the API. */
function categoryName(c: string | { name: string } | null | undefined): string | null {
  const name = c == null ? null : typeof c === 'string' ? c : c.name;
  return name === '' ? null : name;
}

function checkTour(t: TourDoc, path: Path, issues: Issues, plan: Plan, refs: Refs): void {
  ref(issues, [...path, 'museum'], 'museum', t.museum, refs.museumZone);
  if (t.exhibition) ref(issues, [...path, 'exhibition'], 'exhibition', t.exhibition, refs.exhibitionMuseum);
  (t.languages ?? []).forEach((l, j) => ref(issues, [...path, 'languages', j], 'language', l, refs.languages));
  const time = 'a time of day: use "HH:MM" or minutes';
  const windowStart = t.window_start === undefined ? 600 : clock(issues, [...path, 'window_start'], t.window_start, 1439, time);
  const windowEnd = t.window_end === undefined ? 960 : clock(issues, [...path, 'window_end'], t.window_end, 1440, time);
  if (windowStart !== null && windowEnd !== null && windowEnd <= windowStart) issues.add([...path, 'window_end'], 'window_end must be after window_start');
  const duration = clock(issues, [...path, 'duration'], t.duration, 1440, 'a duration: use minutes or "HH:MM"');
  const step = t.step === undefined ? 15 : clock(issues, [...path, 'step'], t.step, 1440, 'a step: use minutes or "HH:MM"');
  if (duration !== null && duration < 1) issues.add([...path, 'duration'], 'duration must be at least 1 minute');
  if (step !== null && step < 1) issues.add([...path, 'step'], 'step must be at least 1 minute');
  const minP = t.min_persons ?? 1;
  if (t.max_persons < minP) issues.add([...path, 'max_persons'], 'max_persons must not be below min_persons');
  plan.tours.push({
    key: t.key,
    museum: t.museum,
    exhibition: t.exhibition ?? null,
    languages: t.languages ?? [],
    category: categoryName(t.category),
    values: {
      ...described(t),
      ...selling(issues, path, plan, t),
      featured: t.featured ?? false,
      duration: duration ?? 0,
      minPersons: minP,
      maxPersons: t.max_persons,
      maxConcurrent: t.max_concurrent ?? 1,
      windowStart: windowStart ?? 0,
      windowEnd: windowEnd ?? 0,
      step: step ?? 0,
      pricing: t.pricing ?? 'group',
    },
  });
}

export function checkProducts(doc: Doc, ok: (path: Path) => boolean, issues: Issues, plan: Plan, refs: Refs, today: string): void {
  doc.tickets.forEach((t, i) => ok(['tickets', i]) && checkTicket(t, ['tickets', i], issues, plan, refs));
  doc.events.forEach((e, i) => ok(['events', i]) && checkEvent(e, ['events', i], issues, plan, refs, today));
  doc.tours.forEach((t, i) => ok(['tours', i]) && checkTour(t, ['tours', i], issues, plan, refs));
}
