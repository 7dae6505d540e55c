// Which visitor mails an event causes (docs/webhooks.md, "Email to visitors"): one kind per
// event type at most, and only with a recipient address and the owning account's mail switch on
// (resellers that mail their customers themselves turn it off).
export type MailKind = 'order_confirmation' | 'order_cancellation' | 'request_received' | 'request_accepted' | 'request_declined';

export interface MailRecipient {
  email: string | null;
  locale: string | null;
  mailEnabled: boolean;
}

const BY_EVENT: Record<string, MailKind> = {
  'order.finalized': 'order_confirmation',
  'order.cancelled': 'order_cancellation',
  'request.created': 'request_received',
  'request.accepted': 'request_accepted',
  'request.declined': 'request_declined',
};

export function mailKindsFor(eventType: string, r: MailRecipient): Array<{ kind: MailKind; email: string; locale: string | null }> {
  const kind = BY_EVENT[eventType];
  if (!kind || !r.email || !r.mailEnabled) return [];
  return [{ kind, email: r.email, locale: r.locale }];
}
