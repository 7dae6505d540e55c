// The staff console (migration 0019, docs/adr/0021-staff-console.md): staff users, their
// server-side sessions, login attempts (throttling across nodes), the console's account and the
// append-only audit log (a trigger refuses UPDATE, DELETE and TRUNCATE).
import { sql } from 'drizzle-orm';
import { bigserial, boolean, check, index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';

export const staffUsers = pgTable(
  'staff_users',
  {
    id: serial().primaryKey(),
    email: text().notNull(),
    /** Display name for the console's user list (migration 0047); may be empty. */
    name: text().notNull().default(''),
    /** argon2id, PHC string. */
    passwordHash: text().notNull(),
    role: text().notNull(),
    /** Empty = every museum of the instance. */
    museumIds: integer().array().notNull().default(sql`'{}'::integer[]`),
    locale: text().notNull().default('de'),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    passwordChangedAt: timestamp({ withTimezone: true }).notNull(),
    disabledAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    check('staff_users_role', sql`${t.role} in ('admin', 'manager', 'box_office', 'viewer')`),
    check('staff_users_locale', sql`${t.locale} in ('de', 'en')`),
  ],
);

export const staffSessions = pgTable(
  'staff_sessions',
  {
    /** SHA-256 (hex) of the cookie's session id; the id itself is never stored. */
    idHash: text().primaryKey(),
    staffUserId: integer()
      .notNull()
      .references(() => staffUsers.id),
    csrfToken: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    lastSeenAt: timestamp({ withTimezone: true }).notNull(),
    /** Absolute end; the idle end is last_seen_at + the idle timeout. */
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    revokedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index('staff_sessions_user').on(t.staffUserId)],
);

export const staffLoginAttempts = pgTable(
  'staff_login_attempts',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    /** Lower-cased as typed: unknown addresses are throttled like known ones. */
    email: text().notNull(),
    address: text().notNull(),
    succeeded: boolean().notNull(),
    at: timestamp({ withTimezone: true }).notNull(),
    /** Hash of the device cookie when the browser was trusted for this account (migration 0033). */
    device: text(),
  },
  (t) => [index('staff_login_attempts_email').on(t.email, t.at), index('staff_login_attempts_address').on(t.address, t.at)],
);

export const staffConsole = pgTable('staff_console', {
  singleton: boolean().primaryKey().default(true),
  accountId: integer()
    .notNull()
    .references(() => accounts.id),
});

export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    at: timestamp({ withTimezone: true }).notNull(),
    staffUserId: integer(),
    /** The staff user's email at the time (or "cli"), so the entry reads without joins. */
    actor: text().notNull(),
    action: text().notNull(),
    entityType: text().notNull(),
    entityId: text(),
    museumId: integer(),
    before: jsonb(),
    after: jsonb(),
  },
  (t) => [index('audit_log_at').on(t.at), index('audit_log_entity').on(t.entityType, t.entityId), index('audit_log_user').on(t.staffUserId, t.at)],
);
