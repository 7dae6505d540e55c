// Demo mode only (`npm start` = `atrium serve --demo`): when there is no staff user yet, an
// admin and a box-office user with a documented demo password, so the console is usable out of
// the box. A real install creates its first admin with `atrium user create --role admin`.
import type { DbOrTx } from '../../db/client.ts';
import { countStaffUserRows } from '../../db/repositories/staff.ts';
import type { Clock } from '../clock.ts';
import { createStaffUser } from './users.ts';

export const DEMO_PASSWORD = 'atrium-demo-2026';
export const DEMO_ADMIN = 'admin@demo.atrium.invalid';
export const DEMO_DESK = 'desk@demo.atrium.invalid';

export async function countStaffUsers(db: DbOrTx): Promise<number> {
  return countStaffUserRows(db);
}

/** Creates the demo users when there are no staff users; true when it did. */
export async function ensureDemoStaff(ctx: { db: DbOrTx; clock: Clock }): Promise<boolean> {
  if ((await countStaffUsers(ctx.db)) > 0) return false;
  await createStaffUser(ctx, { cli: true }, { email: DEMO_ADMIN, role: 'admin', password: DEMO_PASSWORD, locale: 'de' });
  await createStaffUser(ctx, { cli: true }, { email: DEMO_DESK, role: 'box_office', password: DEMO_PASSWORD, locale: 'de' });
  return true;
}
