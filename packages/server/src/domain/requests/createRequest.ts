// POST /requests: a group booking inquiry, in one transaction (request, items and an embedded
// customer together or nothing). Duplicate protection as orders (spec 7.4): once the request's
// own fields are valid, its row is inserted first, so a concurrent duplicate foreign_id blocks on
// the unique index (account_id, foreign_id) before doing any work and gets a unique violation as
// soon as the winner commits. That violation rolls the loser back and it answers with the winner
// (same content) or FOREIGN_ID_CONFLICT (different content): never a second request.
import type { Tx } from '../../db/client.ts';
import { isDbError } from '../../db/errors.ts';
import { insertRequestRow, insertRequestItems, requestOfAccountByForeignId, updateRequest } from '../../db/repositories/requests.ts';
import { transaction } from '../../db/transaction.ts';
import type { Ctx } from '../context.ts';
import { resolveOrderCustomer } from '../customers/resolveOrderCustomer.ts';
import { DomainError, invalid } from '../errors.ts';
import { requestHash } from '../orders/hash.ts';
import { localDateOf } from '../time.ts';
import { reload, requestWriter, type RequestView } from './internal.ts';
import { checkContact, checkItems, checkScalars, type RequestItemInput } from './validation.ts';
import { recordEvent } from '../events/record.ts';

export interface CreateRequestInput {
  foreign_id?: string;
  date?: string;
  participants?: number;
  companions?: number;
  notes?: string | null;
  items?: RequestItemInput[];
  customer?: object;
  customer_id?: number | string;
  contact?: unknown;
}

export const SAVE_FAILED = 'request could not be saved';

async function existingByForeignId(ctx: Ctx, accountId: number, foreignId: string, hash: string) {
  const row = await requestOfAccountByForeignId(ctx.db, accountId, foreignId);
  if (!row) return null;
  if (row.requestHash !== hash) {
    throw new DomainError('FOREIGN_ID_CONFLICT', 'a request with this foreign_id exists with different content');
  }
  return { request: await reload(ctx.db, row.id), replayed: true };
}

function isForeignIdViolation(err: unknown): boolean {
  return isDbError(err, 'UNIQUE_VIOLATION', 'requests_account_foreign_id');
}

export async function createRequest(ctx: Ctx, input: CreateRequestInput): Promise<{ request: RequestView; replayed: boolean }> {
  const accountId = requestWriter(ctx.principal).accountId;
  const hash = requestHash(input);
  const foreignId = input.foreign_id;
  // Checked before the lookup: PostgreSQL refuses NUL in a query parameter.
  if (foreignId !== undefined && /[\u0000-\u001f\u007f]/.test(foreignId)) throw invalid(SAVE_FAILED, ['Foreign id is invalid']);
  if (foreignId) {
    const replay = await existingByForeignId(ctx, accountId, foreignId, hash);
    if (replay) return replay;
  }
  try {
    // The answer is read inside the transaction: a 201 is only sent for what committed.
    const request = await transaction(ctx.db, (tx) => insertRequest(tx, ctx, accountId, input, hash));
    return { request, replayed: false };
  } catch (err) {
    if (foreignId && isForeignIdViolation(err)) {
      const replay = await existingByForeignId(ctx, accountId, foreignId, hash);
      if (replay) return replay;
    }
    throw err;
  }
}

async function insertRequest(tx: Tx, ctx: Ctx, accountId: number, input: CreateRequestInput, hash: string): Promise<RequestView> {
  const now = ctx.clock.now();
  const errors: string[] = [];
  checkScalars(input, localDateOf(now, ctx.config.zone), errors);
  const contact = checkContact(input.contact, errors);

  let id: number | null = null;
  if (errors.length === 0) {
    id = await insertRequestRow(tx, {
      accountId,
      foreignId: input.foreign_id ?? null,
      status: 'pending',
      date: input.date!,
      participants: input.participants!,
      companions: input.companions ?? 0,
      notes: input.notes?.trim() || null,
      contact,
      requestHash: hash,
      createdAt: now,
      updatedAt: now,
    });
  }

  // Checked even when the fields above failed, so one answer lists every problem.
  const items = await checkItems(tx, ctx, input, errors);
  let customerId: number | null = null;
  if (input.customer === undefined && input.customer_id === undefined) {
    errors.push("Customer can't be blank");
  } else {
    try {
      customerId = await resolveOrderCustomer(
        tx,
        ctx,
        {
          ...(input.customer !== undefined ? { customer: input.customer } : {}),
          ...(input.customer_id !== undefined ? { customer_id: input.customer_id } : {}),
        },
        { parent: 'request' },
      );
      if (customerId === null) errors.push("Customer can't be blank");
    } catch (err) {
      if (!(err instanceof DomainError) || err.code !== 'VALIDATION_FAILED') throw err;
      errors.push(...(err.errors ?? [err.message]));
    }
  }
  // Throwing rolls back everything above (the row, an embedded customer): nothing is written.
  if (errors.length || id === null) throw invalid(SAVE_FAILED, errors);

  await insertRequestItems(tx, id, items);
  const museumIds = [...new Set(items.map((i) => i.museumId))].sort((a, b) => a - b);
  await updateRequest(tx, id, { customerId, museumIds });
  await recordEvent({ ...ctx, db: tx }, 'request.created', { subject: { type: 'request', id }, accountId, museumIds });
  return reload(tx, id);
}
