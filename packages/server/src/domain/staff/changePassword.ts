// A staff user changes their own password: the current one must be given; every other session
// of the user ends (the one in use gets a fresh session from the caller), and so does a set-password
// link not yet used (passwordLinks.ts).
import { staffUserById, updateStaffUser } from '../../db/repositories/staff.ts';
import { deletePasswordLinksOf } from '../../db/repositories/staffPasswordLinks.ts';
import { transaction } from '../../db/transaction.ts';
import { recordAudit } from '../audit/recordAudit.ts';
import { invalid } from '../errors.ts';
import { checkPassword, hashPassword, PASSWORD_PROBLEMS, verifyPassword } from './password.ts';
import type { StaffCtx } from './principal.ts';
import { revokeAllSessions } from './sessions.ts';

export async function changeOwnPassword(ctx: StaffCtx, input: { current: string; next: string; repeat: string }): Promise<void> {
  const row = await staffUserById(ctx.db, ctx.staff.id);
  if (!row || !(await verifyPassword(row.passwordHash, String(input.current ?? '')))) throw invalid('the current password is wrong');
  if (input.next !== input.repeat) throw invalid(PASSWORD_PROBLEMS.mismatch);
  checkPassword(input.next);
  const passwordHash = await hashPassword(input.next);
  await transaction(ctx.db, async (tx) => {
    await updateStaffUser(tx, row.id, { passwordHash, passwordChangedAt: ctx.clock.now() });
    await revokeAllSessions({ db: tx, clock: ctx.clock }, row.id);
    await deletePasswordLinksOf(tx, row.id);
    await recordAudit({ ...ctx, db: tx }, ctx.staff, { action: 'staff_user.change_password', entityType: 'staff_user', entityId: row.id });
  });
}
