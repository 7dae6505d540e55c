import { languagesOffered } from '../../db/repositories/catalog/languages.ts';
import type { LanguageRef } from '../../db/repositories/catalog/related.ts';
import type { Ctx } from '../context.ts';

/**
 * Languages offered by the tours (or event dates) the caller can see, so a reseller is never
 * told about a language it cannot book. Users also see languages nothing uses yet, because they
 * need them to set up new tours and dates (languages are shared by every museum).
 */
export async function listLanguages(ctx: Ctx, input: { of: 'tours' | 'events' }): Promise<LanguageRef[]> {
  const p = ctx.principal;
  const all = p.kind === 'account' && p.access === 'user';
  return languagesOffered(ctx.db, input.of, all ? undefined : p);
}
