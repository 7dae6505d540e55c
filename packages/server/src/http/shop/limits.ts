// Per-visitor and per-address limits on what holds capacity in the shop (adding to the cart,
// extending, checking out), so that a bot cannot hold a day: the shop's account is shared by all
// visitors, so the account-level hold limits (domain/capacity/holdLimits.ts) cannot tell them
// apart. Counted in fixed windows of ten minutes by the app's one limiter (ops/limiter.ts: in
// Redis when configured, else per process). Cookies can be thrown away, so the address's budget
// is the backstop; it is larger because several visitors may share one address (a school, a
// museum's own Wi-Fi).
import { DomainError } from '../../domain/errors.ts';
import type { Limiter } from '../../ops/limiter.ts';

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

export function shopLimiter(limiter: Limiter, limits: ShopLimits) {
  return {
    limits,
    /** Counts one holding action; throws RATE_LIMITED when the visitor or the address is over. */
    async take(visitor: string, address: string) {
      const [v, a] = await Promise.all([
        limiter.hit(`shop:v:${visitor}`, { max: limits.perVisitor, windowMs: WINDOW_MS }),
        limiter.hit(`shop:a:${address}`, { max: limits.perAddress, windowMs: WINDOW_MS }),
      ]);
      const wait = Math.max(v ?? 0, a ?? 0);
      if (wait > 0) throw new DomainError('RATE_LIMITED', 'rate limit exceeded', { retryAfter: wait });
    },
  };
}
export type ShopLimiter = ReturnType<typeof shopLimiter>;
