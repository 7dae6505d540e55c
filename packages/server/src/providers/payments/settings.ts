// Payment settings from the environment (docs/payments.md, "Setting it up"). Keys are wrapped in
// Secret so that printing or serializing the configuration never shows them.
import { PROVIDER_NAMES, type ProviderName } from '../../domain/payments/provider.ts';

/** A credential: `reveal()` for the SDK; JSON, string and inspect forms say "[secret]". */
export class Secret {
  readonly #value: string;
  constructor(value: string) {
    this.#value = value;
  }
  reveal(): string {
    return this.#value;
  }
  toJSON(): string {
    return '[secret]';
  }
  toString(): string {
    return '[secret]';
  }
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return '[secret]';
  }
}

export interface PaymentSettings {
  /** Providers this instance offers (ATRIUM_PAYMENT_PROVIDERS). */
  providers: ProviderName[];
  /** The instance's address as visitors and providers reach it (webhook and demo page URLs). */
  publicUrl: string | undefined;
  stripe: { secretKey?: Secret; webhookSecret?: Secret; apiBase?: URL };
  mollie: { apiKey?: Secret; apiEndpoint?: string };
}

type Env = Record<string, string | undefined>;

function parseUrl(raw: string | undefined, name: string, fail: (m: string) => never): URL | undefined {
  if (!raw) return undefined;
  try {
    const u = new URL(raw);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') fail(`${name} must start with http:// or https://`);
    return u;
  } catch {
    return fail(`${name} is not a valid URL`);
  }
}

export function paymentSettingsFromEnv(env: Env, demo: boolean, fail: (m: string) => never): PaymentSettings {
  const raw = env.ATRIUM_PAYMENT_PROVIDERS ?? (demo ? 'demo,desk,invoice' : 'desk,invoice');
  const providers = [...new Set(raw.split(',').map((s) => s.trim()).filter(Boolean))];
  for (const p of providers) {
    if (!(PROVIDER_NAMES as readonly string[]).includes(p) || p === 'gift_card') {
      fail(`ATRIUM_PAYMENT_PROVIDERS: unknown provider "${p}" (use demo, desk, invoice, stripe, mollie)`);
    }
  }
  if (providers.includes('demo') && !demo) fail('ATRIUM_PAYMENT_PROVIDERS: "demo" is only available with ATRIUM_DEMO=true');
  const secret = (name: string) => (env[name] ? new Secret(env[name]!) : undefined);
  const s: PaymentSettings = {
    providers: providers as ProviderName[],
    publicUrl: parseUrl(env.ATRIUM_PUBLIC_URL, 'ATRIUM_PUBLIC_URL', fail)?.toString().replace(/\/$/, ''),
    stripe: { secretKey: secret('STRIPE_SECRET_KEY'), webhookSecret: secret('STRIPE_WEBHOOK_SECRET'), apiBase: parseUrl(env.STRIPE_API_BASE, 'STRIPE_API_BASE', fail) },
    mollie: { apiKey: secret('MOLLIE_API_KEY'), apiEndpoint: parseUrl(env.MOLLIE_API_ENDPOINT, 'MOLLIE_API_ENDPOINT', fail)?.toString() },
  };
  if (providers.includes('stripe') && (!s.stripe.secretKey || !s.stripe.webhookSecret)) {
    fail('ATRIUM_PAYMENT_PROVIDERS names stripe: set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET');
  }
  if (providers.includes('mollie') && !s.mollie.apiKey) fail('ATRIUM_PAYMENT_PROVIDERS names mollie: set MOLLIE_API_KEY');
  return s;
}
