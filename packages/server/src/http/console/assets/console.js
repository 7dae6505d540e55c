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
