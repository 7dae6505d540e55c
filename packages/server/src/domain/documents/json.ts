// Document records as JSON; instants in the instance zone. Shared by the routes and the events'
// payloads (events/render.ts).
import { formatInvoiceNumber } from './renderInput.ts';
import type { DocumentKind, DocumentMeta } from './internal.ts';
import { isoInZone } from '../time.ts';

export function serializeDocument(d: DocumentMeta, zone: string) {
  return {
    id: d.id,
    kind: d.kind as DocumentKind,
    order_id: d.orderId,
    request_id: d.requestId,
    filename: d.filename,
    content_type: d.contentType,
    byte_size: d.byteSize,
    status: d.status,
    sha256: d.sha256,
    invoice_number: d.invoiceNumber === null ? null : formatInvoiceNumber(d.invoiceNumber),
    rejection_reason: d.status === 'rejected' ? d.note : null,
    created_at: isoInZone(d.createdAt, zone),
    updated_at: isoInZone(d.updatedAt, zone),
    available_until: isoInZone(d.availableUntil, zone),
    download_url: `/api/v4/documents/${d.id}/download`,
  };
}
