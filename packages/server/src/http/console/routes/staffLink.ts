// The set-password link of a new or reset staff user, as the admin gets it: mailed to the user in
// their language (notify/mail/staffLink.ts) and shown once on a page that is never cached, with
// whether the mail went out, so the admin knows whether to hand the link over themselves. The link
// is absolute: ATRIUM_PUBLIC_URL when set, else the address the admin's request came to.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PasswordLink } from '../../../domain/staff/passwordLinks.ts';
import type { StaffUserView } from '../../../domain/staff/users.ts';
import { sendStaffLinkMail, type StaffLinkKind } from '../../../notify/mail/staffLink.ts';
import { translator } from '../i18n.ts';
import type { ConsoleDeps } from './deps.ts';
import { renderPage } from './render.ts';

export function setPasswordUrl(req: FastifyRequest, deps: ConsoleDeps, token: string): string {
  const base = deps.config.payments.publicUrl ?? `${req.protocol}://${req.host}`;
  return `${base}/console/set-password/${token}`;
}

export async function showLinkOnce(
  req: FastifyRequest,
  reply: FastifyReply,
  deps: ConsoleDeps,
  d: { kind: StaffLinkKind; heading: string; user: StaffUserView; link: PasswordLink },
) {
  const t = translator(req.consoleLocale);
  const url = setPasswordUrl(req, deps, d.link.token);
  const zone = deps.config.zone;
  let mailed = false;
  if (d.user.email) {
    try {
      await sendStaffLinkMail(deps.config.notify, deps.config.dataDir, d.user.email, {
        kind: d.kind, locale: d.user.locale, name: d.user.name || d.user.email, url, expiresAt: d.link.expiresAt, zone,
      });
      mailed = true;
    } catch (err) {
      // The reason only (a transport's message carries no part of the mail), never the link.
      req.log.warn({ staff_user_id: d.user.id, reason: String((err as Error)?.message ?? err).slice(0, 300) }, 'set-password mail not sent');
    }
  }
  reply.header('cache-control', 'no-store');
  return renderPage(req, reply, 'staff/link', {
    title: d.heading, heading: d.heading, url, expiresAt: d.link.expiresAt,
    mail: d.user.email ? t(mailed ? 'staff.link.mailed' : 'staff.link.notmailed', { email: d.user.email }) : t('staff.link.nomail'),
    mailed,
  });
}
