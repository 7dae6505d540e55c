// The console's navigation, in order. An entry shows only to roles allowed its action; the server
// checks the action again on every route (routes.ts), hiding is a convenience only.
import { roleMay, type ConsoleAction, type StaffRole } from '../../../domain/staff/permissions.ts';

export const NAV: Array<{ href: string; key: string; action: ConsoleAction }> = [
  { href: '/console/day', key: 'nav.day', action: 'day.view' },
  { href: '/console/orders', key: 'nav.orders', action: 'orders.view' },
  { href: '/console/sale', key: 'nav.sale', action: 'sale.create' },
  { href: '/console/closing', key: 'nav.closing', action: 'cash.close' },
  { href: '/console/gift-cards', key: 'nav.giftcards', action: 'giftcards.view' },
  { href: '/console/promo-codes', key: 'nav.promocodes', action: 'promo.view' },
  { href: '/console/requests', key: 'nav.requests', action: 'requests.view' },
  { href: '/console/schedules', key: 'nav.schedules', action: 'schedules.view' },
  { href: '/console/partners', key: 'nav.partners', action: 'partners.view' },
  { href: '/console/reports', key: 'nav.reports', action: 'reports.view' },
  { href: '/console/audit', key: 'nav.audit', action: 'audit.view' },
  { href: '/console/pictures', key: 'nav.pictures', action: 'catalog.pictures' },
  { href: '/console/shop', key: 'nav.shop', action: 'shop.settings' },
  { href: '/console/staff', key: 'nav.staff', action: 'users.manage' },
];

export function navFor(role: StaffRole, path: string) {
  return NAV.filter((n) => roleMay(role, n.action)).map((n) => ({ ...n, current: path === n.href || path.startsWith(`${n.href}/`) }));
}
