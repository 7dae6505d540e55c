// Request bodies are accepted bare or wrapped in their singular key (`{"order": {...}}`, as
// go~mus clients send them, docs/api-contract.md §1). A preValidation hook unwraps them, so the schema and the
// handler always see the bare object.
import type { FastifyRequest } from 'fastify';

export function unwrap(key: string) {
  return async (req: FastifyRequest) => {
    const body = req.body as Record<string, unknown> | null;
    const inner = body && typeof body === 'object' && !Array.isArray(body) ? body[key] : undefined;
    if (inner && typeof inner === 'object' && !Array.isArray(inner)) req.body = inner;
  };
}
