import type { DbOrTx } from '../../db/client.ts';
import { instanceIdOf } from '../../db/repositories/accounts.ts';

export async function instanceId(db: DbOrTx): Promise<string> {
  const id = await instanceIdOf(db);
  if (!id) throw new Error('the database has no instance row; run `atrium migrate` first');
  return id;
}
