// Who is calling. Anonymous callers get the public context (spec 5.3); a token resolves to its
// account's class, museum scope and rights.
// 'entry': scanner devices at the door (docs/api-contract.md §14, docs/adr/0017-entry-control.md): museum-scoped,
// admitted only by routes that list it.
import type { RecordScope } from '../db/repositories/scope.ts';

// 'shop': the visitor shop (src/http/shop) acting through its own account; never from a token.
export type AccessClass = 'public' | 'user' | 'reseller' | 'entry' | 'shop';

export const RIGHT_AREAS = ['orders', 'customers', 'requests', 'documents', 'catalog', 'webhooks', 'reports'] as const;
export type RightArea = (typeof RIGHT_AREAS)[number];
export type Right = `${RightArea}:${'read' | 'write'}`;

export interface AccountPrincipal {
  kind: 'account';
  accountId: number;
  accountName: string;
  access: AccessClass;
  /** Empty means every museum of the instance (spec 2.1). */
  museumIds: number[];
  rights: ReadonlySet<string>;
  tokenId: number;
  tokenLast4: string;
  rateLimitPerMinute: number | null;
}
export interface AnonymousPrincipal {
  kind: 'anonymous';
  access: 'public';
  museumIds: number[];
}
export type Principal = AccountPrincipal | AnonymousPrincipal;

export const anonymous: AnonymousPrincipal = { kind: 'anonymous', access: 'public', museumIds: [] };

/** `orders:write` implies `orders:read`; `*` grants everything. */
export function hasRight(p: Principal, area: RightArea, mode: 'read' | 'write'): boolean {
  if (p.kind !== 'account' || p.access !== 'user') return false;
  return p.rights.has('*') || p.rights.has(`${area}:write`) || (mode === 'read' && p.rights.has(`${area}:read`));
}

/**
 * The records of an area (orders, requests, documents) a caller may read: resellers those of
 * their own account; users with the area's read right those touching a museum of their scope
 * (empty scope = all), and their own account's too when `ownToo`; everybody else none.
 * Out-of-scope records are answered 404 (never reveal existence).
 */
export function readScope(p: Principal, area: RightArea, opts: { ownToo?: boolean } = {}): RecordScope {
  if (p.kind !== 'account') return { kind: 'none' };
  if (p.access === 'reseller') return { kind: 'account', accountId: p.accountId };
  if (p.access === 'user' && hasRight(p, area, 'read')) {
    if (p.museumIds.length === 0) return { kind: 'all' };
    return { kind: 'museums', museumIds: p.museumIds, ...(opts.ownToo ? { alsoAccountId: p.accountId } : {}) };
  }
  return { kind: 'none' };
}

/** Whether a museum is inside the caller's scope. */
export function inMuseumScope(p: Principal, museumId: number): boolean {
  return p.museumIds.length === 0 || p.museumIds.includes(museumId);
}

/** Parses a rights list such as "orders:write,customers:read" or "all"; throws on unknown rights. */
export function parseRights(input: string | string[]): string[] {
  const parts = (Array.isArray(input) ? input : input.split(','))
    .map((s) => s.trim())
    .filter(Boolean);
  const out = new Set<string>();
  for (const part of parts) {
    if (part === 'all' || part === '*') {
      out.add('*');
      continue;
    }
    const [area, mode] = part.split(':');
    if (!RIGHT_AREAS.includes(area as RightArea) || (mode !== 'read' && mode !== 'write')) {
      throw new Error(
        `unknown right "${part}": use AREA:read or AREA:write with AREA one of ${RIGHT_AREAS.join(', ')}, or "all"`,
      );
    }
    out.add(`${area}:${mode}`);
  }
  return [...out];
}
