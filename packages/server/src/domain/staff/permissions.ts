// What each staff role may do in the console (docs/adr/0021-staff-console.md). The console's
// route layer checks the route's action here before any handler runs, and the staff principal
// (principal.ts) carries matching API rights and the museum scope, so the existing domain verbs
// enforce scope themselves. Add new console actions here, one line each.
export const STAFF_ROLES = ['admin', 'manager', 'box_office', 'viewer'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

const ALL: readonly StaffRole[] = STAFF_ROLES;
const SELLERS: readonly StaffRole[] = ['admin', 'manager', 'box_office'];
const MANAGERS: readonly StaffRole[] = ['admin', 'manager'];
const ADMINS: readonly StaffRole[] = ['admin'];

export const CONSOLE_ACTIONS = {
  /** Own account: sign out, sign out everywhere, change password, language. */
  'self': ALL,
  'day.view': ALL,
  'orders.view': ALL,
  'orders.cancel': SELLERS,
  'orders.resend': SELLERS,
  /** Money back without cancelling items (and its retry): a manager's decision, not the desk's. */
  'orders.refund': MANAGERS,
  'sale.create': SELLERS,
  /** The cashier's own cash closing (Kassenabschluss); managers and admins see everyone's. */
  'cash.close': SELLERS,
  'requests.view': ALL,
  'requests.decide': MANAGERS,
  'schedules.view': ALL,
  'schedules.edit': MANAGERS,
  'reports.view': MANAGERS,
  /** Gift cards are the instance's: everyone finds a card and reads its ledger; managers correct. */
  'giftcards.view': ALL,
  'giftcards.correct': MANAGERS,
  /** Instance-wide figures (the domain asks for the reports right, which only admins carry). */
  'giftcards.reports': ADMINS,
  'promo.view': ALL,
  'promo.edit': MANAGERS,
  'partners.view': ADMINS,
  'partners.edit': ADMINS,
  'audit.view': ADMINS,
  /** Pictures of museums, exhibitions, tickets, events and tours (the API's catalog:write). */
  'catalog.pictures': MANAGERS,
  /** The visitor shop's settings (instance-wide). */
  'shop.settings': ADMINS,
  'users.manage': ADMINS,
} as const satisfies Record<string, readonly StaffRole[]>;
export type ConsoleAction = keyof typeof CONSOLE_ACTIONS;

export function roleMay(role: StaffRole, action: ConsoleAction): boolean {
  return (CONSOLE_ACTIONS[action] as readonly StaffRole[]).includes(role);
}

/** The API rights (domain/principal.ts) a role's principal carries into the domain verbs. */
export const ROLE_RIGHTS: Record<StaffRole, string[]> = {
  admin: ['*'],
  manager: ['orders:write', 'customers:write', 'requests:write', 'documents:write', 'catalog:write', 'webhooks:read'],
  box_office: ['orders:write', 'customers:write', 'requests:read', 'documents:read', 'catalog:read'],
  viewer: ['orders:read', 'customers:read', 'requests:read', 'documents:read', 'catalog:read'],
};

export function isStaffRole(v: unknown): v is StaffRole {
  return typeof v === 'string' && (STAFF_ROLES as readonly string[]).includes(v);
}
