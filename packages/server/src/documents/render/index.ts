// PDF renderers for order documents. Each takes plain data (types.ts) and resolves to the whole
// PDF file; same input, same bytes. No database, clock or network access: callers load the data
// first and render outside any transaction.
export { renderTicketsPdf } from './tickets.ts';
export { renderInvoicePdf } from './invoice.ts';
export { renderConfirmationPdf } from './confirmation.ts';
export { computeInvoiceTotals, lineAmounts } from '../../domain/pricing/vat.ts';
export { barcodePng, qrPng } from './codes.ts';
export { formatMoney } from './format.ts';
export type * from '../../domain/documents/renderTypes.ts';
