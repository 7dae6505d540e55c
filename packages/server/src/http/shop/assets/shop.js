// Enhancement only (the shop works without it): the hold's countdown ticks every second, and
// announces the last minute once to screen readers through the status region it sits in.
(function () {
  var el = document.getElementById('countdown');
  if (!el || !el.dataset.seconds) return;
  var end = Date.now() + Number(el.dataset.seconds) * 1000;
  function tick() {
    var left = Math.max(0, Math.round((end - Date.now()) / 1000));
    var m = Math.floor(left / 60);
    var s = left % 60;
    el.textContent = m + ':' + (s < 10 ? '0' : '') + s;
    if (left === 0) { window.location.reload(); return; }
    window.setTimeout(tick, 1000);
  }
  tick();
})();
