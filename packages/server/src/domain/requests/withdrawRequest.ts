// POST /requests/:id/withdraw: the account that made a request takes it back while it is pending.
// Staff who merely see the request (museum scope) may decline it, not withdraw it.
import type { Ctx } from '../context.ts';
import { forbidden } from '../errors.ts';
import { decide } from './decide.ts';
import { requestWriter, type RequestView } from './internal.ts';

export async function withdrawRequest(ctx: Ctx, id: number): Promise<RequestView> {
  const p = requestWriter(ctx.principal);
  return decide(ctx, id, 'withdrawn', async () => ({}), (row) => {
    if (row.accountId !== p.accountId) throw forbidden('only the account that made a request may withdraw it');
  });
}
