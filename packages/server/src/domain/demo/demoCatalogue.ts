// The demo catalogue as a catalogue document (the `atrium import` format), built relative to
// `today` so that a fresh install always has something to sell for the next 60 days. Keys are
// stable (prefix "demo-"), so seeding again updates the records instead of duplicating them;
// event dates are keyed by their start, so a later seed adds the new days and keeps old dates.
import { addDays, weekdayIndex } from '../time.ts';
import type { CatalogueDocument } from '../catalog-import/schema.ts';

export const DEMO_ZONE = 'Europe/Berlin';
const HORIZON_DAYS = 60;

const t = (de: string, en: string) => ({ de, en });

/** Local start times "YYYY-MM-DDTHH:MM" on the given weekdays (Monday = 0) in the next 60 days. */
function weekly(today: string, weekday: number, time: string): string[] {
  const out: string[] = [];
  for (let d = 1; d <= HORIZON_DAYS; d++) {
    const date = addDays(today, d);
    if (weekdayIndex(date) === weekday) out.push(`${date}T${time}`);
  }
  return out;
}

export function demoCatalogue(today: string): CatalogueDocument {
  const validity = { valid_from: today, valid_until: addDays(today, 365) };
  const kh = 'demo-kunsthalle';
  const sm = 'demo-stadtmuseum';
  const slot = { ticket_type: 'time_slot' as const, first_entry: '10:00', last_entry: '17:00', entry_duration: 30, vat_pct: 7 };
  const day = { ticket_type: 'normal' as const, first_entry: '10:00', last_entry: '17:00', vat_pct: 7 };
  return {
    languages: [
      { code: 'de', name: 'Deutsch' },
      { code: 'en', name: 'English' },
    ],
    museums: [
      {
        key: kh,
        title: t('Kunsthalle am See', 'Lakeside Art Hall'),
        sub_title: t('Malerei und Skulptur der Moderne', 'Modern painting and sculpture'),
        time_zone: DEMO_ZONE,
        opening_hours: {
          monday: 'closed',
          tuesday: '10:00-18:00',
          wednesday: '10:00-18:00',
          thursday: '10:00-20:00',
          friday: '10:00-18:00',
          saturday: '10:00-18:00',
          sunday: '10:00-18:00',
        },
        opening_seasons: [summerSeason(today)],
        location: { name: 'Kunsthalle am See', street: 'Seeufer', zip: '10117', city: 'Berlin', country: 'Deutschland' },
      },
      {
        key: sm,
        title: t('Stadtmuseum', 'City Museum'),
        time_zone: DEMO_ZONE,
        opening_hours: Object.fromEntries(
          ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [d, '09:00-17:00']),
        ),
        location: { name: 'Stadtmuseum', street: 'Marktplatz', zip: '10178', city: 'Berlin', country: 'Deutschland' },
      },
    ],
    exhibitions: [
      { key: 'demo-impressionism', museum: kh, title: t('Licht und Farbe', 'Light and Colour'), featured: true },
    ],
    quotas: [
      { key: 'demo-kh-slots', museum: kh, name: 'Kunsthalle per slot', kind: 'slot', capacity: 40 },
      { key: 'demo-kh-day', museum: kh, name: 'Kunsthalle per day', kind: 'day', capacity: 400 },
      { key: 'demo-sm-day', museum: sm, name: 'Stadtmuseum per day', kind: 'day', capacity: 250 },
    ],
    tickets: [
      // The time-slot tickets draw from the slot quota and the day quota; the day ticket only
      // from the day quota: every sale of one lowers what is left of the others.
      { key: 'demo-kh-regular', museum: kh, exhibitions: ['demo-impressionism'], quotas: ['demo-kh-slots', 'demo-kh-day'], title: t('Zeitfenster regulär', 'Timed entry regular'), price_cents: 1400, ...slot, ...validity },
      { key: 'demo-kh-reduced', museum: kh, quotas: ['demo-kh-slots', 'demo-kh-day'], title: t('Zeitfenster ermäßigt', 'Timed entry reduced'), price_cents: 900, reseller_price_cents: 800, ...slot, ...validity },
      { key: 'demo-kh-day', museum: kh, quotas: ['demo-kh-day'], title: t('Tageskarte', 'Day ticket'), price_cents: 1800, ...day, ...validity },
      { key: 'demo-kh-partner', museum: kh, quotas: ['demo-kh-slots', 'demo-kh-day'], title: t('Partnerticket (nur Wiederverkauf)', 'Partner ticket (resellers only)'), price_cents: 1300, reseller_price_cents: 1100, sales_channels: ['reseller'], ...slot, ...validity },
      { key: 'demo-kh-staff', museum: kh, quotas: ['demo-kh-day'], title: t('Freikarte (Kasse)', 'Complimentary (back office)'), price_cents: 0, sales_channels: [], ...day, ...validity },
      { key: 'demo-sm-day', museum: sm, quotas: ['demo-sm-day'], title: t('Eintritt', 'Admission'), price_cents: 800, ...day, first_entry: '09:00', last_entry: '16:00', ...validity },
      { key: 'demo-sm-family', museum: sm, quotas: ['demo-sm-day'], title: t('Familienkarte', 'Family ticket'), price_cents: 1600, reseller_price_cents: 1400, min_persons: 2, max_persons: 6, ...day, first_entry: '09:00', last_entry: '16:00', ...validity },
    ],
    events: [
      {
        key: 'demo-curator-talk', museum: kh, exhibition: 'demo-impressionism', category: 'Talk',
        title: t('Kuratorengespräch', 'Curator talk'), price_cents: 500, vat_pct: 7,
        dates: weekly(today, 5, '15:00').map((start_at) => ({ start_at, duration: 60, seats_max: 25, language: 'de' })),
      },
      {
        key: 'demo-late-view', museum: kh, category: 'Tour', featured: true,
        title: t('Abendführung', 'Late view tour'), price_cents: 1200, reseller_price_cents: 1000, vat_pct: 7,
        dates: weekly(today, 3, '18:30').map((start_at, i) => ({ start_at, duration: 90, seats_max: 20, language: i % 2 ? 'en' : 'de' })),
      },
      {
        key: 'demo-print-workshop', museum: sm, category: 'Workshop',
        title: t('Druckwerkstatt', 'Print workshop'), price_cents: 2500, vat_pct: 19,
        dates: [7, 21, 42].map((d) => ({ start_at: `${addDays(today, d)}T11:00`, duration: 120, seats_min: 1, seats_max: 12, max_per_registration: 4, language: 'de' })),
      },
      {
        // A recurring event (RFC 5545 RRULE, museum wall time): weekends at 14:00, closed days skipped.
        key: 'demo-family-sunday', museum: kh, category: 'Family',
        title: t('Familienführung am Wochenende', 'Weekend family tour'), price_cents: 600, vat_pct: 7,
        dates: [{ recurrence: { rrule: `FREQ=WEEKLY;BYDAY=SA,SU;UNTIL=${addDays(today, HORIZON_DAYS).replace(/-/g, '')}`, start_date: addDays(today, 1), start_time: '14:00' }, duration: 45, seats_max: 15, language: 'de' }],
      },
    ],
    tours: [
      { key: 'demo-kh-highlights', museum: kh, title: t('Highlights der Sammlung', 'Collection highlights'), duration: 60, max_persons: 25, max_concurrent: 2, window_start: '10:00', window_end: '16:00', step: 30, price_cents: 9000, reseller_price_cents: 8000, vat_pct: 19, languages: ['de', 'en'] },
      { key: 'demo-sm-history', museum: sm, title: t('Stadtgeschichte', 'City history'), duration: 90, min_persons: 5, max_persons: 20, window_start: '09:30', window_end: '15:00', step: 30, pricing: 'person', price_cents: 1200, vat_pct: 19, languages: ['de', 'en'] },
    ],
    // Both museums close for Christmas (the next 24-26 December); docs/operations.md.
    closures: [kh, sm].map((museum) => ({
      key: `${museum}-christmas`, museum, start_date: `${nextYearOf(today, '12-26')}-12-24`, end_date: `${nextYearOf(today, '12-26')}-12-26`, reason: 'Christmas',
    })),
  };
}

/** The year of the next `MM-DD` on or after `today`. */
function nextYearOf(today: string, monthDay: string): number {
  const year = Number(today.slice(0, 4));
  return today.slice(5) > monthDay ? year + 1 : year;
}

/** The Kunsthalle's summer season: longer hours in June to August of the coming summer. */
function summerSeason(today: string) {
  const y = nextYearOf(today, '08-31');
  const late = '10:00-20:00';
  return { start_date: `${y}-06-01`, end_date: `${y}-08-31`, hours: { monday: 'closed', tuesday: late, wednesday: late, thursday: '10:00-22:00', friday: late, saturday: late, sunday: late } };
}
