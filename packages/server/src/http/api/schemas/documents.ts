// Documents (docs/api-contract.md §10): metadata records, the upload body and the list filters.
import { Type } from 'typebox';
import { Id, ListMeta, Nullable, PageQuery } from './common.ts';


export const DocumentKind = Type.Union(
  [
    Type.Literal('ticket'),
    Type.Literal('invoice'),
    Type.Literal('credit_note'),
    Type.Literal('e_invoice'),
    Type.Literal('confirmation'),
    Type.Literal('attachment'),
  ],
  { description: 'credit_note: issued when items of an invoiced order are cancelled; e_invoice: the EN 16931 XML (CII) of an invoice or credit note.' },
);
export const DocumentStatus = Type.Union(
  [Type.Literal('processing'), Type.Literal('available'), Type.Literal('rejected'), Type.Literal('expired')],
  { description: 'processing: being generated or virus-scanned (download answers 202); available; rejected (by the virus scan, or an invoice refused for missing issuer settings: see rejection_reason) or expired (download answers 410).' },
);

export const DocumentOut = Type.Object({
  id: Type.Integer(),
  kind: DocumentKind,
  order_id: Nullable(Type.Integer()),
  request_id: Nullable(Type.Integer()),
  filename: Type.String(),
  content_type: Type.String(),
  byte_size: Type.Integer(),
  status: DocumentStatus,
  sha256: Nullable(Type.String({ description: 'Hex SHA-256 of the bytes, once there are bytes.' })),
  invoice_number: Nullable(Type.String({ description: 'Invoices and credit notes: one gapless sequence per instance (the e-invoice of each is named after it).' })),
  rejection_reason: Nullable(Type.String({ description: 'Why a rejected document was rejected (virus signature, or the settings missing to issue an invoice).' })),
  created_at: Type.String(),
  updated_at: Type.String(),
  available_until: Type.String({ description: 'End of retention: afterwards the download answers 410.' }),
  download_url: Type.String(),
});

/** The short form embedded in orders. */
export const DocumentSummaryOut = Type.Object({
  id: Type.Integer(),
  kind: DocumentKind,
  status: DocumentStatus,
  filename: Type.String(),
});

export const DocumentEnvelope = Type.Object({ document: DocumentOut });
export const DocumentList = Type.Object({ documents: Type.Array(DocumentOut), meta: ListMeta });

export const UploadBody = Type.Object({
  order_id: Type.Optional(Id),
  request_id: Type.Optional(Id),
  filename: Type.String({ minLength: 1, maxLength: 255 }),
  content_type: Type.String({ minLength: 3, maxLength: 100, description: 'One of the instance allow-list (default application/pdf, image/png, image/jpeg).' }),
  content_base64: Type.String({ minLength: 1, description: 'The file, base64-encoded; its decoded size is limited (ATRIUM_UPLOAD_MAX_BYTES, default 10 MiB).' }),
});

export const ListDocumentsQuery = Type.Object({
  order_id: Type.Optional(Id),
  request_id: Type.Optional(Id),
  kind: Type.Optional(DocumentKind),
  status: Type.Optional(DocumentStatus),
  ...PageQuery,
});

export const DocumentParam = Type.Object({ id: Id });
