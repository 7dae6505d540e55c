// The payment provider interface, as the domain defines it (src/domain/payments/provider.ts): the
// adapters in this folder implement it; the domain never imports them.
export type {
  Checkout, CheckoutOrder, PaymentProvider, PaymentProviders, ProviderName, ProviderRefund, ProviderStatus, WebhookResult,
} from '../../domain/payments/provider.ts';
