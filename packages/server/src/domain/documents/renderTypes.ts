// Inputs of the PDF renderers (src/documents/render/), defined here because the domain builds
// them. They are plain data, already loaded and already decided (which admissions exist, their
// status, prices): renderers never touch the database or the clock, so
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
  /** Ticket (product) title in the document's locale, e.g. "Erwachsene". */
  title: string;
  /** Slot start (or the visit date's first entry for a day ticket). */
  start_at: Date;
  /** Slot end, when the ticket has one (time-slot tickets): printed as "10:30–11:00". */
  end_at?: Date | null;
  /** What kind of admission: printed as a localized label, never as the raw type name. */
  kind: 'time_slot' | 'normal' | 'event';
  /** Day tickets have no slot: only the date is printed. Default false. */
  day_ticket?: boolean;
  /** Reduced price (the ticket has a discount): the page asks for proof of eligibility. */
  reduced?: boolean;
  /** Price of this one admission (the order item's unit price). */
  price_cents: number;
  vat_pct: number;
  /** Whether price_cents includes the VAT (printed "incl." / "plus"). Default true. */
  tax_included?: boolean;
  /** Canonical barcode string ("403421029763-5"); encoded in the 1D code and the QR code. */
  barcode: string;
  /** A void admission stays in the PDF, stamped CANCELLED, so a reprint shows what was cancelled. */
  status: 'valid' | 'void';
  attendee?: { name: string; surname: string } | null;
}

export interface TicketsPdfInput {
  /** Language of every label, date and amount (src/i18n). */
  locale: string;
  order: RenderOrderRef;
  museum: RenderMuseum;
  currency: string;
  /** One page each, in this order. An empty list is rejected (a PDF needs a page). */
  admissions: TicketAdmission[];
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
  /** 'O': not subject to VAT (a gift card sold); its own bucket, never merged with a 0 % rate. */
  vat_category?: 'O';
}

/** Per VAT rate, and overall. Computed by `computeInvoiceTotals` (see vat.ts for rounding). */
export interface VatBucket {
  vat_pct: number;
  /** 'O': the lines not subject to VAT. */
  category?: 'O';
  net_cents: number;
  vat_cents: number;
  gross_cents: number;
}
export interface InvoiceTotals<L extends InvoiceLineInput = InvoiceLineInput> {
  lines: Array<L & { net_cents: number; vat_cents: number; gross_cents: number }>;
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
  /** Language of the labels, dates and amounts: German for `de…`, else English (the default). */
  locale?: string;
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
