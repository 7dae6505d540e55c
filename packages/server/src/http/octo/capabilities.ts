// The capabilities a request asks for (`Octo-Capabilities`, or the `_capabilities` query
// parameter): comma-separated, `octo/pricing` or bare `pricing`, whitespace trimmed, unknown ones
// ignored; missing or empty means core only. The answer names the ones applied.
import type { FastifyRequest } from 'fastify';

export interface Applied {
  pricing: boolean;
  content: boolean;
}

export const CAPABILITIES = [
  { id: 'octo/pricing', revision: 1, required: false, dependencies: [], docs: 'https://docs.octo.travel/octo-api-capabilities/pricing' },
  { id: 'octo/content', revision: 1, required: false, dependencies: [], docs: 'https://docs.octo.travel/octo-api-capabilities/content' },
] as const;

export function requested(req: FastifyRequest): Applied {
  const header = req.headers['octo-capabilities'];
  const query = (req.query as Record<string, unknown> | undefined)?._capabilities;
  const raw = [header, query].flat().filter((v): v is string => typeof v === 'string').join(',');
  const names = new Set(raw.split(',').map((s) => s.trim().toLowerCase().replace(/^octo\//, '')).filter(Boolean));
  return { pricing: names.has('pricing'), content: names.has('content') };
}

export function appliedHeader(a: Applied): string {
  return [a.pricing ? 'octo/pricing' : null, a.content ? 'octo/content' : null].filter(Boolean).join(', ');
}
