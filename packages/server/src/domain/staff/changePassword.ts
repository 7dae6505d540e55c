// A staff user changes their own password: the current one must be given; every other session
// of the user ends (the one in use gets a fresh session from the caller).
import { eq } from 'drizzle-orm';
import { staffUsers } from '../../db/schema/index.ts';
import { recordAudit } from '../audit/recordAudit.ts';
import { invalid } from '../errors.ts';
import { checkPassword, hashPassword, verifyPassword } from './password.ts';
import type { StaffCtx } from './principal.ts';
import { revokeAllSessions } from './sessions.ts';

export async function changeOwnPassword(ctx: StaffCtx, input: { current: string; next: string; repeat: string }): Promise<void> {
  const [row] = await ctx.db.select().from(staffUsers).where(eq(staffUsers.id, ctx.staff.id));
  if (!row || !(await verifyPassword(row.passwordHash, String(input.current ?? '')))) throw invalid('the current password is wrong');
  if (input.next !== input.repeat) throw invalid('the new passwords do not match');
  checkPassword(input.next);
  const passwordHash = await hashPassword(input.next);
  await ctx.db.transaction(async (tx) => {
    await tx.update(staffUsers).set({ passwordHash, passwordChangedAt: ctx.clock.now() }).where(eq(staffUsers.id, row.id));
    await revokeAllSessions({ db: tx, clock: ctx.clock }, row.id);
    await recordAudit({ ...ctx, db: tx }, ctx.staff, { action: 'staff_user.change_password', entityType: 'staff_user', entityId: row.id });
  });
}
