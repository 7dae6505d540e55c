// An upload's stored and served name ends in an extension of its content type, which the bytes
// were checked against (sniff.ts): "invoice.exe" sent as a PDF is kept as "invoice.pdf", so the
// name a member of staff sees and the program their computer opens it with agree with what the
// file is. Types without an entry here (configured in ATRIUM_UPLOAD_TYPES, not sniffable) keep
// their name.
const EXTENSIONS: Record<string, string[]> = {
  'application/pdf': ['.pdf'],
  'image/png': ['.png'],
  'image/jpeg': ['.jpg', '.jpeg', '.jfif'],
  'image/gif': ['.gif'],
  'image/webp': ['.webp'],
  'image/tiff': ['.tif', '.tiff'],
  'application/zip': ['.zip'],
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': ['.docx'],
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': ['.xlsx'],
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': ['.pptx'],
  'application/vnd.oasis.opendocument.text': ['.odt'],
  'application/vnd.oasis.opendocument.spreadsheet': ['.ods'],
  'text/plain': ['.txt'],
  'text/csv': ['.csv'],
};
const MAX = 150;

/** `name` (already sanitised) with an extension of `contentType`: kept, replaced or added. */
export function withTypeExtension(name: string, contentType: string): string {
  const allowed = EXTENSIONS[contentType];
  if (!allowed) return name;
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 ? name.slice(dot).toLowerCase() : '';
  if (allowed.includes(ext)) return name;
  // Only a short alphanumeric suffix counts as an extension ("v1.2 final" keeps its dot).
  const base = /^\.[a-z0-9]{1,10}$/.test(ext) ? name.slice(0, dot) : name;
  const inner = base.lastIndexOf('.');
  if (inner > 0 && allowed.includes(base.slice(inner).toLowerCase())) return base; // "report.pdf.exe"
  return base.slice(0, MAX - allowed[0]!.length) + allowed[0];
}
