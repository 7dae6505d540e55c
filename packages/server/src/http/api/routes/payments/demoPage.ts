// The demo provider's pages: plain HTML without scripts, marked as a demo on every line that
// matters, so nobody mistakes it for a real payment page.
const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const shell = (body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>DEMO payment — no money is charged</title></head>` +
  `<body><p><strong>DEMO — this page never charges anything.</strong></p>${body}</body></html>`;

export function demoPage(ref: string, a: { amountCents: number; currency: string; orderId: number; state: string }): string {
  const amount = `${(a.amountCents / 100).toFixed(2)} ${esc(a.currency)}`;
  if (a.state !== 'pending') return shell(`<p>This demo payment is already ${esc(a.state)}.</p>`);
  const button = (outcome: string, label: string) =>
    `<form method="post" action="/api/v4/payments/demo/${esc(ref)}"><input type="hidden" name="outcome" value="${outcome}"><button>${label}</button></form>`;
  return shell(`<h1>Demo payment for order ${a.orderId}: ${amount}</h1>${button('paid', 'Pay (demo)')}${button('failed', 'Fail (demo)')}`);
}

export function demoDonePage(state: string, returnUrl: string): string {
  return shell(`<p>Demo payment ${esc(state)}.</p><p><a href="${esc(returnUrl)}">Back to the shop</a></p>`);
}
