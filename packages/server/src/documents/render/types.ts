// Inputs of the PDF renderers. They are plain data, already loaded and already decided (which
// admissions exist, their status, prices): renderers never touch the database or the clock, so
// the same input always yields the same bytes (the PDF CreationDate comes from the input).
// Money is integer cents in `currency` (ISO 4217, e.g. "EUR"); instants are Dates and are printed
// as wall time in the museum's IANA zone.

export interface RenderOrderRef {
  id: number;
  /** Shown to the visitor when present (e.g. a reseller's own reference). */
  reference?: string | null;
  token: string;
  /** Also the PDF's CreationDate: it is fixed for an order, so reprints are byte-identical. */
  created_at: Date;
}

export interface RenderMuseum {
  title: string;
  /** IANA zone, e.g. "Europe/Berlin"; dates and slots are printed in it. */
  time_zone: string;
  /** Free text line(s) such as the address; printed under the title. */
  location?: string | null;
}

export interface TicketAdmission {
  /** Ticket (product) title, e.g. "Adult admission". */
  title: string;
  /** Slot start (or first entry of a day ticket). */
  start_at: Date;
  /** Day tickets have no slot: only the date is printed. Default false. */
  day_ticket?: boolean;
  /** Price category / kind shown under the title, e.g. "normal", "reduced", "Event". */
  ticket_type: string;
  /** Price of this one admission (the order item's unit price). */
  price_cents: number;
  vat_pct: number;
  /** Whether price_cents includes the VAT (printed "incl." / "plus"). Default true. */
  tax_included?: boolean;
  /** Canonical barcode string ("403421029763-5"); encoded in the 1D code and the QR code. */
  barcode: string;
  /** A void admission stays in the PDF, stamped VOID, so a reprint shows what was cancelled. */
  status: 'valid' | 'void';
  attendee?: { name: string; surname: string } | null;
}

export interface TicketsPdfInput {
  order: RenderOrderRef;
  museum: RenderMuseum;
  currency: string;
  /** One page each, in this order. An empty list is rejected (a PDF needs a page). */
  admissions: TicketAdmission[];
}

export interface InvoiceParty {
  name: string;
  /** Street, zip + city, country … one printed line each. */
  address_lines: string[];
  vat_id?: string | null;
  email?: string | null;
}

export interface InvoiceLineInput {
  title: string;
  quantity: number;
  unit_price_cents: number;
  /** quantity × unit price as charged (the order item's price_cents); the tax base of the line. */
  total_cents: number;
  vat_pct: number;
  /** true: total_cents is gross (VAT included); false: total_cents is net and VAT is added. */
  tax_included: boolean;
  /** Optional second line, e.g. the date/slot or "cancelled". */
  detail?: string | null;
}

export interface InvoicePdfInput {
  invoice_number: string;
  issued_at: Date;
  /** Zone in which `issued_at` is printed as a date. */
  time_zone: string;
  seller: InvoiceParty;
  buyer?: InvoiceParty | null;
  /** Printed as "Order <id> / <reference>" when present. */
  order?: { id: number; reference?: string | null } | null;
  currency: string;
  lines: InvoiceLineInput[];
  /** Free text at the bottom, e.g. payment terms or "Paid". */
  note?: string | null;
}

/** Per VAT rate, and overall. Computed by `computeInvoiceTotals` (see vat.ts for rounding). */
export interface VatBucket {
  vat_pct: number;
  net_cents: number;
  vat_cents: number;
  gross_cents: number;
}
export interface InvoiceTotals {
  lines: Array<InvoiceLineInput & { net_cents: number; vat_cents: number; gross_cents: number }>;
  by_rate: VatBucket[];
  net_cents: number;
  vat_cents: number;
  gross_cents: number;
}

/** One tour or event booked in an order (or an accepted group request). */
export interface ConfirmationBooking {
  kind: 'tour' | 'event';
  title: string;
  start_at: Date;
  end_at?: Date | null;
  /** Tour language name, e.g. "English". */
  language?: string | null;
  /** Participants (event seats, or tour participants). */
  quantity: number;
  /** Gross price of the booking line. */
  price_cents: number;
  vat_pct: number;
  status: 'booked' | 'cancelled';
  meeting_point?: string | null;
  attendees?: Array<{ name: string; surname: string }> | null;
}

export interface ConfirmationPdfInput {
  order: RenderOrderRef;
  museum: RenderMuseum;
  currency: string;
  /** Who booked: printed in the address block. */
  customer?: { name: string; surname: string; institution?: string | null; email?: string | null } | null;
  /** A contact person for the group, if different from the customer. */
  contact?: { name: string; email?: string | null; phone?: string | null } | null;
  bookings: ConfirmationBooking[];
  /** Free text, e.g. "Please arrive 10 minutes early." */
  note?: string | null;
}

/** Every renderer resolves to the complete PDF file. */
export type RenderedPdf = Buffer;
