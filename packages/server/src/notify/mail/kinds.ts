// Which visitor mails an event causes (docs/webhooks.md, "Email to visitors"): one kind per
// event type at most, and only with a recipient address and the owning account's mail switch on
// (resellers that mail their customers themselves turn it off).
export type MailKind = 'order_confirmation' | 'order_cancellation' | 'request_received' | 'request_accepted' | 'request_declined' | 'payment_returned';

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

/** Who made a refund that the visitor is told about on their own: money that came too late. */
const LATE_MONEY = 'late-payment';

export function mailKindsFor(eventType: string, r: MailRecipient, data?: Record<string, unknown> | null): Array<{ kind: MailKind; email: string; locale: string | null }> {
  // Late money (docs/payments.md): the order could not take it, so it went back; the visitor is
  // told once it is done. Other refunds come with a cancellation mail or a staff member's word.
  const late = eventType === 'refund.succeeded' && (data?.refund as { created_by?: unknown } | undefined)?.created_by === LATE_MONEY;
  const kind = late ? 'payment_returned' : BY_EVENT[eventType];
  if (!kind || !r.email || !r.mailEnabled) return [];
  return [{ kind, email: r.email, locale: r.locale }];
}
