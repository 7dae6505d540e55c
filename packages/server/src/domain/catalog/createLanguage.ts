import { insertLanguage, languageCodeTaken } from '../../db/repositories/catalog/languages.ts';
import type { LanguageRef } from '../../db/repositories/catalog/related.ts';
import { transaction } from '../../db/transaction.ts';
import type { Ctx } from '../context.ts';
import { Problems } from './checks.ts';
import { assertStaff, failIfAny } from './writeSupport.ts';

/** A language tours and event dates can be given in; `code` is unique (e.g. "de", "en-GB"). */
export async function createLanguage(ctx: Ctx, input: { code?: string; name?: string }): Promise<LanguageRef & { code: string }> {
  assertStaff(ctx);
  const p = new Problems();
  if (typeof input.code !== 'string' || !/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$/.test(input.code)) p.add('code must be a language code such as "de" or "en-GB"');
  if (typeof input.name !== 'string' || input.name.trim() === '' || input.name.length > 100) p.add("name can't be blank (at most 100 characters)");
  failIfAny('language', p.list);
  return transaction(ctx.db, async (tx) => {
    if (await languageCodeTaken(tx, input.code!)) failIfAny('language', [`code ${input.code} is already taken`]);
    // ON CONFLICT covers a concurrent insert of the same code between the check and the insert.
    const row = await insertLanguage(tx, { code: input.code!, name: input.name!.trim() });
    if (!row) failIfAny('language', [`code ${input.code} is already taken`]);
    return row!;
  });
}
