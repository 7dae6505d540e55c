// What a closure would do, without doing it: the console shows this before staff confirm
// (docs/api-contract.md §17). The same checks as createClosure (checkClosure) and the same
// affected-items rule (affectedItems), so the preview lists exactly the orders the closure
// then reports or cancels, unless a booking lands between preview and confirmation (the
// confirmation answers its own `affected`, which the console shows again).
import type { Ctx } from '../context.ts';
import { assertStaff, failIfAny, writableMuseum } from '../catalog/writeSupport.ts';
import { affectedItems, summarise, type Affected } from './affected.ts';
import { checkClosure, type ClosureInput } from './closureInput.ts';

export async function previewClosure(ctx: Ctx, input: ClosureInput): Promise<{ museum_id: number; affected: Affected }> {
  assertStaff(ctx);
  const museum = await writableMuseum(ctx, ctx.db, input.museum_id);
  const { problems, values } = await checkClosure(ctx.db, museum.id, museum.timeZone, input);
  failIfAny('closure', problems);
  const v = values!;
  const span = {
    id: 0, from: v.startsAt.getTime(), to: v.endsAt.getTime(),
    ticketIds: v.ticketIds, quotaIds: v.quotaIds, eventIds: v.eventIds, tourIds: v.tourIds, reason: v.reason,
  };
  const items = await affectedItems(ctx.db, museum.id, museum.timeZone, span, ctx.clock.now());
  return { museum_id: museum.id, affected: summarise(items) };
}
