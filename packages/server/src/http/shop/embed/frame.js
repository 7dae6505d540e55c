// Included by shop pages: when the page is shown in a frame, it tells the embedding page its
// height (embed.js there resizes the frame). Only a height is sent; the embedding page checks
// that the message comes from the shop's origin.
(function () {
  'use strict';
  if (window.parent === window) return;
  var last = 0;
  function send() {
    var h = document.documentElement.scrollHeight;
    if (h === last) return;
    last = h;
    window.parent.postMessage({ type: 'atrium:height', height: h }, '*');
  }
  if (window.ResizeObserver) new ResizeObserver(send).observe(document.documentElement);
  window.addEventListener('load', send);
  send();
})();
