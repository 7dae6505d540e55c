// What the payments verbs need from a payment service provider (docs/payments.md). The domain
// defines the interface and the adapters in src/providers/payments/ implement it, so the verbs
// never import an SDK; a provider's answers are only ever triggers and facts to check, never a
// state the domain copies blindly (a webhook is answered by asking the provider again).

export const PROVIDER_NAMES = ['demo', 'desk', 'invoice', 'stripe', 'mollie', 'gift_card'] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];

export interface CheckoutOrder {
  id: number;
  token: string;
  currency: string;
  /** When the pending order lets its places go: a provider's page should not outlive it by much. */
  expiresAt: Date | null;
}

export interface Checkout {
  /** Where the visitor pays (the provider's hosted page, or the demo page). */
  redirectUrl: string;
  /** The provider's id of this attempt; unique per provider. */
  providerRef: string;
}

/** The provider's answer about one attempt, in the domain's words. */
export interface ProviderStatus {
  state: 'paid' | 'pending' | 'failed' | 'canceled';
  /** What the provider says was paid, when it says (checked against the payment's amount). */
  amountCents?: number;
  method?: string | null;
  failure?: string;
}

export interface ProviderRefund {
  state: 'done' | 'pending' | 'failed';
  providerRef?: string;
  failure?: string;
}

/**
 * A verified notification: which attempt to ask about again (null: an event Atrium does not act
 * on, answered 200 so the provider stops sending it), or why it was refused.
 */
export type WebhookResult = { ok: true; providerRef: string | null } | { ok: false; reason: string };

export interface PaymentProvider {
  readonly name: ProviderName;
  /** Whether the visitor pays on a page (stripe, mollie, demo) rather than at a desk. */
  readonly hosted: boolean;
  startCheckout(order: CheckoutOrder, amountCents: number, returnUrl: string, paymentId: number): Promise<Checkout>;
  fetchStatus(providerRef: string): Promise<ProviderStatus>;
  /** Refunds part or all; the key makes a repeated call (a retry) one refund at the provider. */
  refund(providerRef: string, amountCents: number, idempotencyKey: string): Promise<ProviderRefund>;
  parseWebhook(rawBody: string, headers: Record<string, string | string[] | undefined>): Promise<WebhookResult>;
}

/** The providers this instance enables (ATRIUM_PAYMENT_PROVIDERS). */
export interface PaymentProviders {
  get(name: ProviderName): PaymentProvider | undefined;
  readonly enabled: readonly ProviderName[];
}
