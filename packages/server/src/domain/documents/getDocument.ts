// GET /documents/:id: the metadata of one visible document (never its bytes).
import type { Ctx } from '../context.ts';
import { findDocumentMeta, type DocumentMeta } from './internal.ts';

export async function getDocument(ctx: Ctx, id: number): Promise<DocumentMeta> {
  return findDocumentMeta(ctx.db, ctx, id);
}
