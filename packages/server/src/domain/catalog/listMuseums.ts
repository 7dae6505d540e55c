import { and, sql } from 'drizzle-orm';
import { museums } from '../../db/schema/index.ts';
import type { Ctx } from '../context.ts';
import { callerKey, localeKey, pageOfJson, pageOfViews, type JsonOut, type PagePlan } from './fragments.ts';
import { shaped } from './pageQuery.ts';
import { paging, resolveLocale, titleMatches, titleShape, type ListInput, type Page } from './internal.ts';
import { museumView, type View } from './views.ts';
import { inScopeSql, visibleShape } from './visibilitySql.ts';

/** Museums inside the caller's scope (museums have no sales channels). */
export async function listMuseums(ctx: Ctx, input: ListInput): Promise<Page<View>> {
  return pageOfViews(ctx, museumsPlan(ctx, input));
}

/** The same page, each museum as its JSON text, from row fragments where kept (fragments.ts). */
export async function listMuseumsJson(ctx: Ctx, input: ListInput, out: JsonOut): Promise<Page<string>> {
  return pageOfJson(ctx, museumsPlan(ctx, input), out);
}

function museumsPlan(ctx: Ctx, input: ListInput): PagePlan<typeof museums.$inferSelect> {
  const L = resolveLocale(ctx, input.locale);
  const pg = paging(ctx, input);
  // Rendered once per shape (pageQuery.ts#shaped).
  const { where, shape } = shaped(ctx.db, `museums|${visibleShape(ctx.principal)}|${titleShape(input.q)}`, () =>
    and(inScopeSql(ctx.principal, museums.id), titleMatches(museums.title, input.q)),
  );
  // One statement: the page, the total (pageQuery.ts).
  return {
    spec: { table: museums, where, countApart: !input.q, order: sql`${museums.id}`, limit: pg.perPage, offset: pg.offset, shape },
    extraKeys: [],
    view: (m) => museumView(ctx.principal, m, L),
    context: `${callerKey(ctx.principal)}|${localeKey(L)}`,
    paging: pg,
  };
}
