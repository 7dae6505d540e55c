// Staff users: created, listed, disabled, enabled and given a new password by an admin (console,
// through manageStaff.ts, which adds the admin's museum scope) or the operator (CLI `atrium user
// …`). Each change is audited in the same transaction; disabling or resetting a password also
// ends every session of that user and any set-password link (passwordLinks.ts). The console
// gives a set-password link where the CLI prints a password.
import type { DbOrTx } from '../../db/client.ts';
import {
  allStaffUsers, disableStaffUserRow, enableStaffUserRow, insertStaffUser, staffUserByEmail, staffUserById, updateStaffUser, type StaffUserRow,
} from '../../db/repositories/staff.ts';
import { deletePasswordLinksOf } from '../../db/repositories/staffPasswordLinks.ts';
import { transaction } from '../../db/transaction.ts';
import { recordAudit, type AuditActor } from '../audit/recordAudit.ts';
import type { Clock } from '../clock.ts';
import { DomainError, invalid, notFound } from '../errors.ts';
import { checkPassword, generatePassword, hashPassword } from './password.ts';
import { issuePasswordLink, type PasswordLink } from './passwordLinks.ts';
import { isStaffRole, type StaffRole } from './permissions.ts';
import { revokeAllSessions } from './sessions.ts';

type Base = { db: DbOrTx; clock: Clock };
const EMAIL = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/;

/** The field messages of a refused new user (the console shows each in the user's words). */
export const STAFF_PROBLEMS = {
  name: 'name must have at most 200 characters',
  email: 'email must be an email address',
  role: 'role must be admin, manager, box_office or viewer',
  locale: 'locale must be de or en',
  museums: 'museum ids must be positive integers',
  taken: 'a staff user with this email exists',
  scope: 'museums must be within your own',
} as const;

export interface StaffUserView {
  id: number;
  email: string;
  /** Display name; may be empty (users made before names existed). */
  name: string;
  role: StaffRole;
  museumIds: number[];
  locale: 'de' | 'en';
  createdAt: Date;
  disabledAt: Date | null;
}

export interface CreateStaffUserInput {
  email: string;
  name?: string;
  role: string;
  museumIds?: number[];
  locale?: string;
  /** Absent: one is generated and returned once. */
  password?: string;
}

function view(r: StaffUserRow): StaffUserView {
  return { id: r.id, email: r.email, name: r.name, role: r.role as StaffRole, museumIds: r.museumIds, locale: r.locale as 'de' | 'en', createdAt: r.createdAt, disabledAt: r.disabledAt };
}

/** A new user with the given password (or one generated), returned once: the CLI's way. */
export async function createStaffUser(ctx: Base, actor: AuditActor, input: CreateStaffUserInput): Promise<{ user: StaffUserView; password: string }> {
  const password = input.password ?? generatePassword();
  return addUser(ctx, actor, input, password, async () => ({ password }));
}

/**
 * A new user with a set-password link instead of a password (the console's way): the password
 * stored is a random one nobody is shown, so only the link lets the user in.
 */
export async function createStaffUserWithLink(ctx: Base, actor: AuditActor, input: Omit<CreateStaffUserInput, 'password'>): Promise<{ user: StaffUserView; link: PasswordLink }> {
  return addUser(ctx, actor, input, generatePassword(), async (tx, user) => ({ link: await issuePasswordLink({ db: tx, clock: ctx.clock }, user.id) }));
}

async function addUser<R>(ctx: Base, actor: AuditActor, input: Omit<CreateStaffUserInput, 'password'>, password: string, more: (tx: DbOrTx, user: StaffUserView) => Promise<R>): Promise<{ user: StaffUserView } & R> {
  const email = (input.email ?? '').trim();
  const name = (input.name ?? '').trim();
  const errors: string[] = [];
  if (name.length > 200) errors.push(STAFF_PROBLEMS.name);
  if (!EMAIL.test(email) || email.length > 254) errors.push(STAFF_PROBLEMS.email);
  if (!isStaffRole(input.role)) errors.push(STAFF_PROBLEMS.role);
  const locale = input.locale ?? 'de';
  if (locale !== 'de' && locale !== 'en') errors.push(STAFF_PROBLEMS.locale);
  const museumIds = input.museumIds ?? [];
  if (museumIds.some((m) => !Number.isInteger(m) || m < 1)) errors.push(STAFF_PROBLEMS.museums);
  if (errors.length) throw invalid('staff user could not be created', errors);
  checkPassword(password);
  const passwordHash = await hashPassword(password);
  const now = ctx.clock.now();
  return transaction(ctx.db, async (tx) => {
    if (await staffUserByEmail(tx, email)) throw invalid('staff user could not be created', [STAFF_PROBLEMS.taken]);
    const user = view(await insertStaffUser(tx, { email, name, passwordHash, role: input.role, museumIds, locale, createdAt: now, passwordChangedAt: now }));
    await recordAudit({ db: tx, clock: ctx.clock }, actor, { action: 'staff_user.create', entityType: 'staff_user', entityId: user.id, after: { email, name, role: user.role, museum_ids: museumIds, locale } });
    return { user, ...(await more(tx, user)) };
  });
}

export async function listStaffUsers(ctx: Base): Promise<StaffUserView[]> {
  return (await allStaffUsers(ctx.db)).map(view);
}

async function findByEmailOrId(ctx: Base, key: string | number) {
  const row = typeof key === 'number' ? await staffUserById(ctx.db, key) : await staffUserByEmail(ctx.db, key);
  if (!row) throw notFound('staff user');
  return row;
}

export async function disableStaffUser(ctx: Base, actor: AuditActor, key: string | number): Promise<StaffUserView> {
  const row = await findByEmailOrId(ctx, key);
  if (!('cli' in actor) && actor.id === row.id) throw new DomainError('FORBIDDEN', 'you cannot disable your own account');
  const now = ctx.clock.now();
  return transaction(ctx.db, async (tx) => {
    const u = await disableStaffUserRow(tx, row.id, now);
    await revokeAllSessions({ db: tx, clock: ctx.clock }, row.id);
    await deletePasswordLinksOf(tx, row.id);
    await recordAudit({ db: tx, clock: ctx.clock }, actor, { action: 'staff_user.disable', entityType: 'staff_user', entityId: row.id, before: { disabled: row.disabledAt !== null }, after: { disabled: true } });
    return view(u);
  });
}

/** Lets a disabled user sign in again (with the password they had; sessions stay ended). */
export async function enableStaffUser(ctx: Base, actor: AuditActor, key: string | number): Promise<StaffUserView> {
  const row = await findByEmailOrId(ctx, key);
  return transaction(ctx.db, async (tx) => {
    const u = await enableStaffUserRow(tx, row.id);
    await recordAudit({ db: tx, clock: ctx.clock }, actor, { action: 'staff_user.enable', entityType: 'staff_user', entityId: row.id, before: { disabled: row.disabledAt !== null }, after: { disabled: false } });
    return view(u);
  });
}

/** A new password (generated unless given), returned once: the CLI's way. Every session ends. */
export async function resetStaffPassword(ctx: Base, actor: AuditActor, key: string | number, given?: string): Promise<{ user: StaffUserView; password: string }> {
  const password = given ?? generatePassword();
  return replacePassword(ctx, actor, key, password, async () => ({ password }));
}

/**
 * An admin's reset in the console: the old password stops working at once (a random one nobody
 * is shown replaces it), every session ends, and the user sets a new one through the link.
 */
export async function resetStaffPasswordWithLink(ctx: Base, actor: AuditActor, key: string | number): Promise<{ user: StaffUserView; link: PasswordLink }> {
  return replacePassword(ctx, actor, key, generatePassword(), async (tx, user) => ({ link: await issuePasswordLink({ db: tx, clock: ctx.clock }, user.id) }));
}

async function replacePassword<R>(ctx: Base, actor: AuditActor, key: string | number, password: string, more: (tx: DbOrTx, user: StaffUserView) => Promise<R>): Promise<{ user: StaffUserView } & R> {
  const row = await findByEmailOrId(ctx, key);
  checkPassword(password);
  const passwordHash = await hashPassword(password);
  const now = ctx.clock.now();
  return transaction(ctx.db, async (tx) => {
    const u = view(await updateStaffUser(tx, row.id, { passwordHash, passwordChangedAt: now }));
    await revokeAllSessions({ db: tx, clock: ctx.clock }, row.id);
    // An earlier link must not undo this reset; `more` may issue the one new link.
    await deletePasswordLinksOf(tx, row.id);
    await recordAudit({ db: tx, clock: ctx.clock }, actor, { action: 'staff_user.reset_password', entityType: 'staff_user', entityId: row.id });
    return { user: u, ...(await more(tx, u)) };
  });
}

export async function setStaffLocale(ctx: Base, id: number, locale: string): Promise<void> {
  if (locale !== 'de' && locale !== 'en') throw invalid('locale must be de or en');
  await updateStaffUser(ctx.db, id, { locale });
}
