// Atrium shop embedding (docs/shop.md). Include on the museum's own website:
//   <script src="https://tickets.example.org/shop/embed.js" defer></script>
// then either a ticket button (a link that opens the shop):
//   <a data-atrium-button="/shop/tickets/12">Tickets</a>
// or an inline shop (an iframe that grows with its content):
//   <div data-atrium-shop="/shop"></div>      or      <atrium-shop path="/shop/events/3"></atrium-shop>
// The iframe's height comes from the shop page by postMessage; messages are accepted only from
// the shop's own origin and only from the frame this script made.
(function () {
  'use strict';
  var script = document.currentScript;
  if (!script) return;
  var base = new URL(script.src).origin;
  var frames = [];

  function shopUrl(path, embedded) {
    var p = typeof path === 'string' && path.charAt(0) === '/' && path.indexOf('//') !== 0 ? path : '/shop';
    if (p !== '/shop' && p.indexOf('/shop/') !== 0) p = '/shop';
    var u = new URL(p, base);
    if (embedded) u.searchParams.set('embed', '1');
    return u.toString();
  }

  function frameFor(host, path) {
    if (host.querySelector('iframe[data-atrium-frame]')) return;
    var f = document.createElement('iframe');
    f.setAttribute('data-atrium-frame', '');
    f.src = shopUrl(path, true);
    f.title = host.getAttribute('data-title') || 'Tickets';
    f.loading = 'lazy';
    f.style.width = '100%';
    f.style.border = '0';
    f.style.minHeight = '480px';
    host.appendChild(f);
    frames.push(f);
  }

  window.addEventListener('message', function (e) {
    if (e.origin !== base) return;
    var d = e.data;
    if (!d || d.type !== 'atrium:height' || typeof d.height !== 'number' || !isFinite(d.height)) return;
    for (var i = 0; i < frames.length; i++) {
      if (frames[i].contentWindow === e.source) {
        frames[i].style.height = Math.max(200, Math.min(20000, Math.ceil(d.height))) + 'px';
      }
    }
  });

  function init() {
    var buttons = document.querySelectorAll('[data-atrium-button]');
    for (var i = 0; i < buttons.length; i++) {
      var b = buttons[i];
      b.setAttribute('href', shopUrl(b.getAttribute('data-atrium-button'), false));
      if (!b.getAttribute('rel')) b.setAttribute('rel', 'noopener');
    }
    var hosts = document.querySelectorAll('[data-atrium-shop]');
    for (var j = 0; j < hosts.length; j++) frameFor(hosts[j], hosts[j].getAttribute('data-atrium-shop'));
  }

  if (window.customElements && !window.customElements.get('atrium-shop')) {
    window.customElements.define('atrium-shop', class extends HTMLElement {
      connectedCallback() { frameFor(this, this.getAttribute('path')); }
    });
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
  else init();
})();
