import { eq } from 'drizzle-orm';
import { languages } from '../../db/schema/index.ts';
import type { Ctx } from '../context.ts';
import { Problems } from './checks.ts';
import type { LanguageRef } from './loaders.ts';
import { assertStaff, failIfAny } from './writeSupport.ts';

/** A language tours and event dates can be given in; `code` is unique (e.g. "de", "en-GB"). */
export async function createLanguage(ctx: Ctx, input: { code?: string; name?: string }): Promise<LanguageRef & { code: string }> {
  assertStaff(ctx);
  const p = new Problems();
  if (typeof input.code !== 'string' || !/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$/.test(input.code)) p.add('code must be a language code such as "de" or "en-GB"');
  if (typeof input.name !== 'string' || input.name.trim() === '' || input.name.length > 100) p.add("name can't be blank (at most 100 characters)");
  failIfAny('language', p.list);
  return ctx.db.transaction(async (tx) => {
    const [taken] = await tx.select({ id: languages.id }).from(languages).where(eq(languages.code, input.code!));
    if (taken) failIfAny('language', [`code ${input.code} is already taken`]);
    // ON CONFLICT covers a concurrent insert of the same code between the check and the insert.
    const rows = await tx.insert(languages).values({ code: input.code!, name: input.name!.trim() }).onConflictDoNothing().returning();
    if (rows.length === 0) failIfAny('language', [`code ${input.code} is already taken`]);
    const row = rows[0]!;
    return { id: row.id, name: row.name, code: row.code };
  });
}
