// What every OCTO route shares: its access and error shape, and the view an answer is shaped by.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DomainError } from '../../domain/errors.ts';
import { requested } from './capabilities.ts';
import { sendOcto } from './errors.ts';
import { contentLanguage } from './language.ts';
import type { View } from './products.ts';

export const routeConfig = {
  // Reseller tokens only: no token is UNAUTHORIZED, another class FORBIDDEN (in OCTO's shape).
  access: { anonymous: false, classes: ['reseller' as const] },
  cache: 'live' as const,
  errorShape: (req: FastifyRequest, reply: FastifyReply, err: DomainError) => sendOcto(req, reply, err),
};
export const hidden = { hide: true };

/** What every answer is shaped by: the capabilities applied, the language, the caller. */
export function viewOf(req: FastifyRequest): View {
  const applied = requested(req);
  const lang = contentLanguage(req, req.ctx.config.locales);
  return { applied, lang, currency: req.ctx.config.currency, principal: req.principal, cutoffHours: req.ctx.config.octoCancellationCutoffHours, origin: `${req.protocol}://${req.host}` };
}

