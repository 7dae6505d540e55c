// The Content-Security-Policy of the pages Atrium serves itself (console, shop): scripts, styles
// and connections only from this origin, no inline code, no plugins. What differs per page is
// where forms may post (a payment provider's page) and who may frame it.
export function pageCsp(opts: { formAction?: readonly string[]; frameAncestors: string }): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    `form-action 'self'${opts.formAction?.length ? ` ${opts.formAction.join(' ')}` : ''}`,
    `frame-ancestors ${opts.frameAncestors}`,
  ].join('; ');
}
