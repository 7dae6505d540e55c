// Per-visitor and per-address limits on what holds capacity in the shop (adding to the cart,
// extending, checking out), so that a bot cannot hold a day: the shop's account is shared by all
// visitors, so the account-level hold limits (domain/capacity/holdLimits.ts) cannot tell them
// apart. Counted in fixed windows of ten minutes by the same counters the API's rate limits use.
// Cookies can be thrown away, so the address's budget is the backstop; it is larger because
// several visitors may share one address (a school, a museum's own Wi-Fi).
import { MemoryCounters } from '../../ops/rate-store.ts';
import { DomainError } from '../../domain/errors.ts';

export interface ShopLimits {
  /** Holding actions (add, extend, checkout) per visitor and per address in 10 minutes. */
  perVisitor: number;
  perAddress: number;
  /** Places one cart may hold at a time. */
  placesPerCart: number;
}

export const DEFAULT_LIMITS: ShopLimits = { perVisitor: 30, perAddress: 120, placesPerCart: 30 };

/**
 * The defaults, or ATRIUM_SHOP_HOLDS_PER_VISITOR / ATRIUM_SHOP_HOLDS_PER_ADDRESS (whole numbers
 * 1..1,000,000) where set: a load test from one address, or a kiosk network, needs more. Read
 * here until the shop's settings carry them.
 */
export function limitsFromEnv(env: Record<string, string | undefined>): ShopLimits {
  const n = (v: string | undefined, d: number) => (v && /^\d{1,7}$/.test(v) && Number(v) >= 1 ? Number(v) : d);
  return { ...DEFAULT_LIMITS, perVisitor: n(env.ATRIUM_SHOP_HOLDS_PER_VISITOR, DEFAULT_LIMITS.perVisitor), perAddress: n(env.ATRIUM_SHOP_HOLDS_PER_ADDRESS, DEFAULT_LIMITS.perAddress) };
}
const WINDOW_MS = 10 * 60_000;

export function shopLimiter(limits: ShopLimits) {
  const counters = new MemoryCounters();
  return {
    limits,
    /** Counts one holding action; throws RATE_LIMITED when the visitor or the address is over. */
    take(visitor: string, address: string) {
      const v = counters.count(`v:${visitor}`, WINDOW_MS);
      const a = counters.count(`a:${address}`, WINDOW_MS);
      const over = [v.current > limits.perVisitor ? v.ttl : 0, a.current > limits.perAddress ? a.ttl : 0];
      const wait = Math.max(...over);
      if (wait > 0) throw new DomainError('RATE_LIMITED', 'rate limit exceeded', { retryAfter: Math.max(1, Math.ceil(wait / 1000)) });
    },
  };
}
export type ShopLimiter = ReturnType<typeof shopLimiter>;
