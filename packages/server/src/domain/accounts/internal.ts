import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';

export async function instanceId(db: DbOrTx): Promise<string> {
  const res = await db.execute<{ instance_id: string }>(sql`select instance_id from instance where id = 1`);
  const id = res.rows[0]?.instance_id;
  if (!id) throw new Error('the database has no instance row; run `atrium migrate` first');
  return id;
}
