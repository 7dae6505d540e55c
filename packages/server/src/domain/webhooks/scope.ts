// Who receives which event (docs/webhooks.md, "Who receives what"): a reseller only the events
// of its own orders and requests; a user account with the webhooks right the events of its
// museums (empty scope = every museum). The same rule as reading the record itself
// (orders/internal.ts orderScope): an endpoint never learns of a record its owner could not GET.
export interface EndpointOwner {
  accountId: number;
  class: string;
  museumIds: number[];
  rights: string[];
}

export interface EventScope {
  accountId: number | null;
  museumIds: number[];
}

export function mayUseWebhooks(owner: Pick<EndpointOwner, 'class' | 'rights'>): boolean {
  if (owner.class === 'reseller') return true;
  return owner.class === 'user' && owner.rights.some((r) => r === '*' || r === 'webhooks:read' || r === 'webhooks:write');
}

export function receives(owner: EndpointOwner, scope: EventScope): boolean {
  if (!mayUseWebhooks(owner)) return false;
  if (owner.class === 'reseller') return scope.accountId === owner.accountId;
  if (owner.museumIds.length === 0) return true;
  return scope.museumIds.some((m) => owner.museumIds.includes(m));
}
