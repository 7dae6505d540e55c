import { and, eq, sql } from 'drizzle-orm';
import { exhibitions } from '../../db/schema/index.ts';
import type { Ctx } from '../context.ts';
import { callerKey, localeKey, pageOfJson, pageOfViews, type JsonOut, type PagePlan } from './fragments.ts';
import { bound, given, inIds, shaped } from './pageQuery.ts';
import { paging, resolveLocale, titleMatches, titleShape, type ListInput, type Page } from './internal.ts';
import { exhibitionView, type View } from './views.ts';
import { inScopeSql, visibleShape } from './visibilitySql.ts';

export interface ListExhibitionsInput extends ListInput {
  by_museum_ids?: number[] | undefined;
  by_featured?: boolean | undefined;
}

export async function listExhibitions(ctx: Ctx, input: ListExhibitionsInput): Promise<Page<View>> {
  return pageOfViews(ctx, exhibitionsPlan(ctx, input));
}

/** The same page, each exhibition as its JSON text, from row fragments where kept (fragments.ts). */
export async function listExhibitionsJson(ctx: Ctx, input: ListExhibitionsInput, out: JsonOut): Promise<Page<string>> {
  return pageOfJson(ctx, exhibitionsPlan(ctx, input), out);
}

function exhibitionsPlan(ctx: Ctx, input: ListExhibitionsInput): PagePlan<typeof exhibitions.$inferSelect> {
  const L = resolveLocale(ctx, input.locale);
  const pg = paging(ctx, input);
  // Rendered once per shape (pageQuery.ts#shaped).
  const filters = given(input.by_museum_ids, input.by_featured);
  const { where, shape } = shaped(ctx.db, `exhibitions|${visibleShape(ctx.principal)}|${filters}|${titleShape(input.q)}`, () =>
    and(
      inScopeSql(ctx.principal, exhibitions.museumId),
      input.by_museum_ids?.length ? inIds(exhibitions.museumId, input.by_museum_ids) : undefined,
      input.by_featured === undefined ? undefined : eq(exhibitions.featured, bound(input.by_featured)),
      titleMatches(exhibitions.title, input.q),
    ),
  );
  // One statement: the page, the total (pageQuery.ts).
  return {
    spec: { table: exhibitions, where, countApart: !input.q, order: sql`${exhibitions.id}`, limit: pg.perPage, offset: pg.offset, shape },
    extraKeys: [],
    // The view reads nothing of the caller; the key names it anyway (the list's scope is the caller's).
    view: (x) => exhibitionView(x, L),
    context: `${callerKey(ctx.principal)}|${localeKey(L)}`,
    paging: pg,
  };
}
