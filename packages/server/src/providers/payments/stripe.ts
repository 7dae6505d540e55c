// Stripe Checkout (hosted page) through the official SDK. A Checkout Session is one attempt; its
// id is the provider reference. Webhooks are verified with the SDK's constructEvent (the
// Stripe-Signature header, HMAC-SHA256 over "t.body" with the endpoint secret) and then only
// name the session to ask about again. STRIPE_API_BASE points the SDK at a stand-in (tests).
import type Stripe from 'stripe';
import type { PaymentSettings } from './settings.ts';
import type { PaymentProvider, ProviderStatus } from './types.ts';

/** Events that say something happened to a Checkout Session. */
const SESSION_EVENTS = new Set([
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.async_payment_failed',
  'checkout.session.expired',
]);

/** Unix seconds within Stripe's window for a session's expiry: 30 minutes to 24 hours from now. */
function sessionExpiry(orderExpiresAt: Date): number {
  const now = Math.floor(Date.now() / 1000);
  return Math.min(Math.max(Math.floor(orderExpiresAt.getTime() / 1000), now + 31 * 60), now + 23 * 3600);
}

export function stripeProvider(settings: PaymentSettings['stripe']): PaymentProvider {
  const base = settings.apiBase;
  // The SDK is loaded with the first call that needs it, not with every server process.
  let client: Promise<Stripe> | undefined;
  const sdk = () => (client ??= import('stripe').then(({ default: StripeSdk }) => new StripeSdk(settings.secretKey!.reveal(), {
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    ...(base ? { host: base.hostname, port: base.port || (base.protocol === 'http:' ? 80 : 443), protocol: base.protocol === 'http:' ? 'http' : 'https' } : {}),
  })));
  const webhookSecret = settings.webhookSecret!;

  async function paymentIntentOf(ref: string): Promise<string> {
    const s = await (await sdk()).checkout.sessions.retrieve(ref);
    const pi = typeof s.payment_intent === 'string' ? s.payment_intent : s.payment_intent?.id;
    if (!pi) throw new Error('the checkout session has no payment to refund');
    return pi;
  }

  return {
    name: 'stripe',
    hosted: true,
    async startCheckout(order, amountCents, returnUrl, paymentId) {
      const s = await (await sdk()).checkout.sessions.create(
        {
          mode: 'payment',
          line_items: [{ quantity: 1, price_data: { currency: order.currency.toLowerCase(), unit_amount: amountCents, product_data: { name: `Order ${order.id}` } } }],
          success_url: returnUrl,
          cancel_url: returnUrl,
          client_reference_id: String(order.id),
          // The page closes near the order's expiry (Stripe allows 30 minutes to 24 hours); money
          // paid after the order expired is refunded (docs/payments.md).
          ...(order.expiresAt ? { expires_at: sessionExpiry(order.expiresAt) } : {}),
          metadata: { atrium_order_id: String(order.id), atrium_payment_id: String(paymentId) },
        },
        // One session per payment row, even if this call is repeated after a timeout.
        { idempotencyKey: `atrium-payment-${paymentId}` },
      );
      if (!s.url) throw new Error('Stripe returned a session without a URL');
      return { redirectUrl: s.url, providerRef: s.id };
    },
    async fetchStatus(ref): Promise<ProviderStatus> {
      const s = await (await sdk()).checkout.sessions.retrieve(ref, { expand: ['payment_intent'] });
      if (s.payment_status === 'paid' || s.payment_status === 'no_payment_required') {
        return { state: 'paid', ...(s.amount_total !== null ? { amountCents: s.amount_total } : {}), method: s.payment_method_types?.[0] ?? null };
      }
      if (s.status === 'expired') return { state: 'canceled', failure: 'checkout session expired' };
      const pi = typeof s.payment_intent === 'object' ? s.payment_intent : null;
      // A completed session that is still unpaid: an asynchronous method that failed, or a decline.
      if (s.status === 'complete' && pi && (pi.status === 'canceled' || pi.last_payment_error)) {
        return { state: 'failed', failure: pi.last_payment_error?.decline_code ?? pi.last_payment_error?.code ?? 'payment failed' };
      }
      return { state: 'pending' };
    },
    async refund(ref, amountCents, idempotencyKey) {
      let r: Stripe.Refund;
      try {
        r = await (await sdk()).refunds.create({ payment_intent: await paymentIntentOf(ref), amount: amountCents }, { idempotencyKey });
      } catch (err) {
        // Stripe answered and refused (4xx); anything else (no answer, 5xx) leaves the outcome unknown.
        const e = err as { type?: string; code?: string; message?: string };
        if (e.type === 'StripeInvalidRequestError' || e.type === 'StripeCardError') return { state: 'failed', failure: e.code ?? e.message ?? 'refused' };
        throw err;
      }
      if (r.status === 'failed' || r.status === 'canceled') return { state: 'failed', providerRef: r.id, failure: r.failure_reason ?? r.status };
      // 'pending' refunds are accepted by Stripe and complete without further action.
      return { state: 'done', providerRef: r.id };
    },
    async parseWebhook(rawBody, headers) {
      const sig = headers['stripe-signature'];
      if (typeof sig !== 'string') return { ok: false, reason: 'missing Stripe-Signature header' };
      let event: Stripe.Event;
      try {
        event = (await sdk()).webhooks.constructEvent(rawBody, sig, webhookSecret.reveal());
      } catch {
        return { ok: false, reason: 'signature does not verify' };
      }
      if (!SESSION_EVENTS.has(event.type)) return { ok: true, providerRef: null };
      const obj = event.data.object as { id?: unknown };
      return typeof obj.id === 'string' ? { ok: true, providerRef: obj.id } : { ok: false, reason: 'event without a session id' };
    },
  };
}
