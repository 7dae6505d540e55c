// The payment providers an instance enables (ATRIUM_PAYMENT_PROVIDERS), built once per
// configuration: the HTTP routes and the reconcile job of one process share them (the demo
// provider keeps its attempts in memory).
import type { Config } from '../../config.ts';
import { demoProvider } from './demo.ts';
import { mollieProvider } from './mollie.ts';
import { offlineProvider } from './offline.ts';
import { stripeProvider } from './stripe.ts';
import type { PaymentProvider, PaymentProviders, ProviderName } from './types.ts';

const built = new WeakMap<Config, PaymentProviders>();

export function paymentProviders(config: Config): PaymentProviders {
  let registry = built.get(config);
  if (registry) return registry;
  const s = config.payments;
  const map = new Map<ProviderName, PaymentProvider>();
  for (const name of s.providers) {
    if (name === 'desk' || name === 'invoice') map.set(name, offlineProvider(name));
    else if (name === 'demo') map.set(name, demoProvider(s.publicUrl ?? `http://${config.host}:${config.port}`));
    else if (name === 'stripe') map.set(name, stripeProvider(s.stripe));
    else if (name === 'mollie') map.set(name, mollieProvider(s.mollie, s.publicUrl));
  }
  registry = { get: (n) => map.get(n), enabled: [...map.keys()] };
  built.set(config, registry);
  return registry;
}
