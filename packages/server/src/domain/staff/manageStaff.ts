// Staff users managed by an admin in the console: the verbs of users.ts, with the admin as the
// audit actor and the admin's museum scope. An admin limited to some museums sees and manages
// only users limited to (some of) those museums, and creates only such users; anyone else is
// "not found", as partner accounts are (domain/partners).
import { DomainError, invalid, notFound } from '../errors.ts';
import type { StaffCtx } from './principal.ts';
import type { PasswordLink } from './passwordLinks.ts';
import {
  createStaffUserWithLink, disableStaffUser, enableStaffUser, listStaffUsers, resetStaffPasswordWithLink, STAFF_PROBLEMS, type CreateStaffUserInput, type StaffUserView,
} from './users.ts';

/** Whether a user with these museums lies within the acting admin's scope (empty = every museum). */
function withinScope(ctx: StaffCtx, museumIds: number[]): boolean {
  const mine = ctx.staff.museumIds;
  if (mine.length === 0) return true;
  return museumIds.length > 0 && museumIds.every((m) => mine.includes(m));
}

function assertAdmin(ctx: StaffCtx) {
  if (ctx.staff.role !== 'admin') throw new DomainError('FORBIDDEN', 'only admins manage staff users');
}

export async function staffUsersFor(ctx: StaffCtx): Promise<StaffUserView[]> {
  assertAdmin(ctx);
  return (await listStaffUsers(ctx)).filter((u) => withinScope(ctx, u.museumIds));
}

async function target(ctx: StaffCtx, id: number): Promise<StaffUserView> {
  const u = (await listStaffUsers(ctx)).find((x) => x.id === id);
  if (!u || !withinScope(ctx, u.museumIds)) throw notFound('staff user');
  return u;
}

/** A new user, who sets their own password through the link returned (once). */
export async function createStaffUserAs(ctx: StaffCtx, input: Omit<CreateStaffUserInput, 'password'>): Promise<{ user: StaffUserView; link: PasswordLink }> {
  assertAdmin(ctx);
  if (!withinScope(ctx, input.museumIds ?? [])) throw invalid('staff user could not be created', [STAFF_PROBLEMS.scope]);
  return createStaffUserWithLink(ctx, ctx.staff, input);
}

/** The old password stops working and the user's sessions end; the link returned (once) sets a new one. */
export async function resetStaffPasswordAs(ctx: StaffCtx, id: number): Promise<{ user: StaffUserView; link: PasswordLink }> {
  assertAdmin(ctx);
  await target(ctx, id);
  return resetStaffPasswordWithLink(ctx, ctx.staff, id);
}

export async function setStaffUserEnabled(ctx: StaffCtx, id: number, enabled: boolean): Promise<StaffUserView> {
  assertAdmin(ctx);
  await target(ctx, id);
  return enabled ? enableStaffUser(ctx, ctx.staff, id) : disableStaffUser(ctx, ctx.staff, id);
}

/** One user of the admin's scope (for the confirmation page). */
export async function staffUserFor(ctx: StaffCtx, id: number): Promise<StaffUserView> {
  assertAdmin(ctx);
  return target(ctx, id);
}
