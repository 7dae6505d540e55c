// An account's notification switches (docs/webhooks.md, "Email to visitors"): whether visitors
// get mail for the account's orders and requests (a reseller that mails its customers itself
// turns it off). GET|PUT /accounts/:id/notify_settings and `atrium account mail on|off`.
// Who may: a reseller for its own account; a user token with the webhooks right and every
// museum in scope (an account's orders span museums) for any account; the operator's CLI.
// Another account is a 404 to anybody else, never revealed.
import { accountMailSwitch, setAccountMailSwitch } from '../../db/repositories/webhooks.ts';
import type { Ctx } from '../context.ts';
import { forbidden, notFound } from '../errors.ts';
import { hasRight } from '../principal.ts';

export interface NotifySettingsView {
  accountId: number;
  mailEnabled: boolean;
}

function mayManage(ctx: Ctx, accountId: number, mode: 'read' | 'write'): void {
  const p = ctx.principal;
  if (p.kind === 'account' && p.access === 'reseller' && p.accountId === accountId) return;
  if (p.kind === 'account' && p.access === 'user' && hasRight(p, 'webhooks', mode)) {
    if (p.museumIds.length === 0) return;
    throw forbidden("changing another account's notifications needs a token for every museum");
  }
  throw notFound('account');
}

async function read(ctx: Ctx, accountId: number): Promise<NotifySettingsView> {
  const row = await accountMailSwitch(ctx.db, accountId);
  if (!row) throw notFound('account');
  // No row means the defaults: mail on.
  return { accountId: row.id, mailEnabled: row.mail ?? true };
}

export async function getNotifySettings(ctx: Ctx, accountId: number): Promise<NotifySettingsView> {
  mayManage(ctx, accountId, 'read');
  return read(ctx, accountId);
}

/** Takes effect for events dispatched from now on; mails already queued are sent. */
export async function setNotifySettings(ctx: Ctx, accountId: number, input: { mail_enabled: boolean }): Promise<NotifySettingsView> {
  mayManage(ctx, accountId, 'write');
  await read(ctx, accountId);
  await setAccountMailSwitch(ctx.db, accountId, input.mail_enabled);
  return read(ctx, accountId);
}
