// What providers and the demo page send: POST /payments/stripe/webhook (signed JSON, verified on
// the exact bytes received, so this context reads bodies as text), POST /payments/mollie/webhook
// (a form with the payment id only) and the demo provider's page. A notification is only a
// trigger: confirmPayment asks the provider before anything changes. A refused notification is
// 400 and changes nothing; an error of ours is 5xx, so the provider sends it again.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { publicRead } from '../../access.ts';
import { errorResponses } from '../../schemas/common.ts';
import { systemCtx, type Ctx } from '../../../../domain/context.ts';
import { DomainError } from '../../../../domain/errors.ts';
import { confirmPayment } from '../../../../domain/payments/confirmPayment.ts';
import type { ProviderName } from '../../../../domain/payments/provider.ts';
import type { DemoProvider } from '../../../../providers/payments/demo.ts';
import { paymentProviders } from '../../../../providers/payments/index.ts';
import { DemoParam, WebhookAnswer } from './schemas.ts';
import { demoPage, demoDonePage } from './demoPage.ts';

const tags = ['payments'];
const html = (schema = Type.String()) => ({ content: { 'text/html': { schema } } });

function system(req: FastifyRequest): Ctx {
  const c = req.ctx;
  return { ...systemCtx({ db: c.db, clock: c.clock, config: c.config }), ...(c.testing ? { testing: c.testing } : {}) };
}

export const paymentWebhookRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Bodies stay text here: Stripe's signature covers the bytes as sent.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 256 * 1024 }, (_req, body, done) => done(null, body));

  async function notify(req: FastifyRequest, name: ProviderName) {
    const providers = paymentProviders(req.ctx.config);
    const provider = providers.get(name);
    if (!provider) throw new DomainError('NOT_FOUND', `payment provider "${name}" is not enabled on this instance`);
    const verdict = await provider.parseWebhook(typeof req.body === 'string' ? req.body : '', req.headers);
    if (!verdict.ok) throw new DomainError('WEBHOOK_SIGNATURE_INVALID', `notification refused: ${verdict.reason}`);
    if (verdict.providerRef === null) return { received: true };
    try {
      await confirmPayment(system(req), providers, { provider: name, providerRef: verdict.providerRef }, 'provider-webhook');
    } catch (err) {
      // Not one of ours (another shop on the same account, or a forged id): nothing to do.
      if (err instanceof DomainError && err.code === 'NOT_FOUND') return { received: true };
      throw err;
    }
    return { received: true };
  }

  for (const name of ['stripe', 'mollie'] as const) {
    app.post(
      `/payments/${name}/webhook`,
      {
        config: { access: publicRead, cache: 'live' },
        schema: {
          tags,
          summary: name === 'stripe' ? 'Stripe notifications (signed; checked with the endpoint secret)' : 'Mollie notifications (a payment id; the payment is fetched from Mollie)',
          response: { 200: WebhookAnswer, ...errorResponses(400, 404, 422) },
        },
      },
      async (req) => notify(req, name),
    );
  }

  const demo = (req: FastifyRequest) => paymentProviders(req.ctx.config).get('demo') as DemoProvider | undefined;

  app.get(
    '/payments/demo/:ref',
    {
      config: { access: publicRead, cache: 'live' },
      schema: {
        tags,
        summary: 'Demo mode only: a clearly marked page to pay or fail a demo payment (never charges)',
        params: DemoParam,
        response: { 200: html(), ...errorResponses(404, 422) },
      },
    },
    async (req, reply) => {
      const a = demo(req)?.attempt(req.params.ref);
      if (!a) throw new DomainError('NOT_FOUND', 'demo payment not found');
      reply.type('text/html; charset=utf-8');
      return demoPage(req.params.ref, a);
    },
  );

  app.post(
    '/payments/demo/:ref',
    {
      config: { access: publicRead, cache: 'live' },
      schema: {
        tags,
        summary: 'Demo mode only: the demo page’s buttons (outcome=paid or outcome=failed)',
        params: DemoParam,
        response: { 200: html(), ...errorResponses(404, 422) },
      },
    },
    async (req, reply) => {
      const provider = demo(req);
      const outcome = new URLSearchParams(typeof req.body === 'string' ? req.body : '').get('outcome');
      if (outcome !== 'paid' && outcome !== 'failed') throw new DomainError('VALIDATION_FAILED', 'outcome must be paid or failed');
      const back = provider?.decide(req.params.ref, outcome);
      if (!provider || !back) throw new DomainError('NOT_FOUND', 'demo payment not found');
      const r = await confirmPayment(system(req), paymentProviders(req.ctx.config), { provider: 'demo', providerRef: req.params.ref }, 'demo-page');
      reply.type('text/html; charset=utf-8');
      return demoDonePage(r.payment.state, back.returnUrl);
    },
  );
};
