// What each API right of a partner account means, in plain words: the one mapping from the stored
// right names (domain/principal.ts RIGHT_AREAS, "AREA:read" / "AREA:write", "*" for all) to the
// console's labels. The partners pages show and offer these; the stored value stays the name.
// "change" includes "see" (hasRight), which the labels say.
export const de: Record<string, string> = {
  'right.*': 'Alles (alle heutigen und künftigen Rechte)',
  'right.orders:read': 'Bestellungen und Tickets ansehen',
  'right.orders:write': 'Bestellungen anlegen, ändern und stornieren (mit Ansehen)',
  'right.customers:read': 'Kundendaten ansehen',
  'right.customers:write': 'Kundendaten anlegen und ändern (mit Ansehen)',
  'right.requests:read': 'Gruppenanfragen ansehen',
  'right.requests:write': 'Gruppenanfragen stellen und entscheiden (mit Ansehen)',
  'right.documents:read': 'Tickets und Rechnungen (PDF) abrufen',
  'right.documents:write': 'Dokumente erstellen und versenden (mit Abrufen)',
  'right.catalog:read': 'Angebot ansehen: Tickets, Führungen, Veranstaltungen, Öffnungszeiten',
  'right.catalog:write': 'Angebot, Preise und Öffnungszeiten ändern (mit Ansehen)',
  'right.webhooks:read': 'Webhook-Einstellungen ansehen',
  'right.webhooks:write': 'Webhooks einrichten und ändern (mit Ansehen)',
  'right.reports:read': 'Verkaufsberichte ansehen',
  'right.reports:write': 'Verkaufsberichte erstellen (mit Ansehen)',
  'rights.none': 'keine',
  'rights.help': 'Nur für Mitarbeiter-API-Zugänge. „Ändern“ schließt „Ansehen“ ein.',
};

export const en: Record<string, string> = {
  'right.*': 'Everything (all current and future rights)',
  'right.orders:read': 'See orders and tickets',
  'right.orders:write': 'Place, change and cancel orders (includes seeing them)',
  'right.customers:read': 'See customer data',
  'right.customers:write': 'Create and change customer data (includes seeing it)',
  'right.requests:read': 'See group requests',
  'right.requests:write': 'Send and decide group requests (includes seeing them)',
  'right.documents:read': 'Download tickets and invoices (PDF)',
  'right.documents:write': 'Make and send documents (includes downloading them)',
  'right.catalog:read': 'See the offer: tickets, tours, events, opening hours',
  'right.catalog:write': 'Change the offer, prices and opening hours (includes seeing them)',
  'right.webhooks:read': 'See webhook settings',
  'right.webhooks:write': 'Set up and change webhooks (includes seeing them)',
  'right.reports:read': 'See sales reports',
  'right.reports:write': 'Make sales reports (includes seeing them)',
  'rights.none': 'none',
  'rights.help': 'For staff API accounts only. "Change" includes "see".',
};
