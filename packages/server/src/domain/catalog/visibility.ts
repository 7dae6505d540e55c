// Who sees and who may book a product (docs/api-contract.md §3, spec 1 "context-aware"). One definition used
// by catalogue reads, availability, reservations and orders, so they can never disagree.
//   anonymous / public token → products on the 'shop' channel
//   the shop (src/http/shop)   → the same, and it may book them
//   reseller                 → products on the 'reseller' channel, limited to the named resellers
//                              when `resellerAccountIds` is non-empty
//   user                     → everything, including back-office-only products
// and always: active, and inside the caller's museum scope.
import { inMuseumScope, type Principal } from '../principal.ts';

export interface Sellable {
  museumId: number;
  active: boolean;
  salesChannels: string[];
  resellerAccountIds: number[];
}

export function isVisibleTo(p: Principal, product: Sellable): boolean {
  if (!product.active || !inMuseumScope(p, product.museumId)) return false;
  if (p.kind === 'anonymous' || p.access === 'public' || p.access === 'shop') return product.salesChannels.includes('shop');
  if (p.access === 'reseller') {
    return (
      product.salesChannels.includes('reseller') &&
      (product.resellerAccountIds.length === 0 || product.resellerAccountIds.includes(p.accountId))
    );
  }
  return true;
}

/**
 * Whether the caller may book it. Anonymous callers and public tokens never write (docs/api-contract.md §3),
 * so for them this is false even for shop products; `bookable` in catalogue answers uses
 * `isVisibleTo` for shop products instead (the shop itself sells them).
 */
export function isBookableBy(p: Principal, product: Sellable): boolean {
  if (p.kind === 'anonymous' || p.access === 'public') return false;
  return isVisibleTo(p, product);
}

/** The price the caller pays: resellers get the reseller price where one is set. */
export function priceFor(p: Principal, product: { priceCents: number; resellerPriceCents: number | null }): number {
  return p.kind === 'account' && p.access === 'reseller' && product.resellerPriceCents !== null
    ? product.resellerPriceCents
    : product.priceCents;
}
