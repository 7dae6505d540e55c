// Small progressive enhancements of the console (the pages work without it): a form marked
// data-once disables its submit buttons after the first submit, so a double click sends one
// request (the server is idempotent anyway: the sale form carries an idempotency key).
document.addEventListener('submit', (e) => {
  const form = e.target;
  if (!(form instanceof HTMLFormElement) || !form.hasAttribute('data-once')) return;
  if (form.dataset.sent === '1') {
    e.preventDefault();
    return;
  }
  form.dataset.sent = '1';
});
// The box office: the change due while the cash given is typed (the server computes it again on
// Enter and at the sale; this is only a preview). Whole cash part: the total less a part paid
// another way when the rest is cash, and less what a gift card pays.
(() => {
  const given = document.getElementById('given');
  const total = document.getElementById('total');
  const change = document.getElementById('change');
  if (!given || !total || !change) return;
  const cents = (s) => {
    const m = /^(\d{1,7})(?:[.,](\d{1,2}))?$/.exec(s.trim().replace(/\s|€/g, ''));
    return m ? Number(m[1]) * 100 + (m[2] ? Number(m[2].padEnd(2, '0')) : 0) : null;
  };
  const fmt = new Intl.NumberFormat(given.dataset.locale === 'de' ? 'de-DE' : 'en-GB', { style: 'currency', currency: given.dataset.currency || 'EUR' });
  const update = () => {
    const g = cents(given.value);
    const part = cents(document.getElementById('part_amount')?.value || '') || 0;
    const rest = Number(total.dataset.cents) - part - Number(total.dataset.gift || 0);
    change.textContent = g === null || g < rest ? '–' : fmt.format((g - rest) / 100);
  };
  given.addEventListener('input', update);
  document.getElementById('part_amount')?.addEventListener('input', update);
})();
