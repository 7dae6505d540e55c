// Documents (docs/api-contract.md §10). A download answers 202 while the document is generated or scanned for
// viruses (spec 7.1: retry after a short backoff): the client polls, honouring Retry-After, until
// the file is ready or the deadline passes (DocumentNotReadyError). 410 is GoneError and is never
// retried (spec 7.3).
import type { Core, ReadOptions } from '../core.ts';
import { endpoint } from '../endpoints.ts';
import { DocumentNotReadyError } from '../errors.ts';
import { retryAfterMs, sleep } from '../http.ts';
import { safeCreate } from '../safe.ts';
import type { DocumentFile, DocumentRecord, DocumentUpload, List } from '../types.ts';
import type { WriteOptions } from './crud.ts';

const EP = {
  list: endpoint('GET', '/documents'),
  get: endpoint('GET', '/documents/{id}'),
  download: endpoint('GET', '/documents/{id}/download'),
  upload: endpoint('POST', '/documents'),
};

export interface DownloadOptions {
  /** How long to keep polling while the server answers 202 (default: the client's documentDeadlineMs). */
  deadlineMs?: number;
  correlationId?: string;
}

export class Documents {
  constructor(private readonly core: Core, private readonly deadlineMs: number) {}

  list(query?: { order_id?: number; request_id?: number; page?: number; per_page?: number }, o: ReadOptions = {}): Promise<List<DocumentRecord>> {
    return this.core.list(EP.list, 'documents', { ...o, ...(query ? { query } : {}) });
  }
  get(id: number, o: ReadOptions = {}): Promise<DocumentRecord> {
    return this.core.one(EP.get, 'document', { ...o, params: { id } });
  }

  async download(id: number, o: DownloadOptions = {}): Promise<DocumentFile> {
    const deadline = o.deadlineMs ?? this.deadlineMs;
    const started = Date.now();
    const correlationId = o.correlationId ?? this.core.http.newCorrelationId();
    for (let poll = 1; ; poll++) {
      const res = await this.core.http.send(EP.download, { params: { id }, binary: true, correlationId });
      if (res.status === 200 && res.bytes) {
        const disposition = res.headers.get('content-disposition') ?? '';
        const filename = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition)?.[1];
        return {
          bytes: res.bytes,
          contentType: res.headers.get('content-type') ?? 'application/octet-stream',
          filename: filename ? decodeURIComponent(filename) : undefined,
        };
      }
      // 202 (or any other non-error answer without the file): wait and ask again, within the deadline.
      const waited = Date.now() - started;
      const pause = this.core.http.backoff(poll, retryAfterMs(res.headers) ?? 0);
      if (waited + pause > deadline) throw new DocumentNotReadyError(id, waited);
      this.core.http.o.logger.info({ event: 'atrium.document_pending', document_id: id, poll, status: res.status, correlation_id: correlationId }, `document ${id} not ready yet`);
      await sleep(pause);
    }
  }

  /** Uploads an attachment (base64 content); scanned for viruses before it can be downloaded. Not resent after an ambiguous failure. */
  upload(body: DocumentUpload, o: WriteOptions = {}): Promise<DocumentRecord> {
    return safeCreate(this.core.http, { ep: EP.upload, call: { ...o, body }, unwrap: (b) => b?.document });
  }
}
