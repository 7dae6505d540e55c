// The /scan page (docs/adr/0017-entry-control.md): sign in with an entry token, read QR codes and
// Code 128 from the camera with zxing-wasm (served by this server, never a CDN), or typed codes,
// and show the answer full screen. Scans made while the network is down wait in localStorage
// with their device_scan_id and scanned_at and are posted when it returns; the server replays a
// repeated device_scan_id, so a retry after a lost answer never counts twice.
// Everything shown is set with textContent: nothing from the server or a code becomes markup.
'use strict';
(function () {
  const TOKEN_KEY = 'atrium-scan-token';
  const QUEUE_KEY = 'atrium-scan-queue';
  const SAME_CODE_PAUSE_MS = 4000; // a code held in front of the camera is not scanned again at once
  const ANSWER_MS = 2500;
  const FRAME_MS = 150;
  const MAX_QUEUE = 5000;
  const REASONS = {
    valid: 'valid', already_used: 'already_used', not_yet_valid: 'not_yet_valid', expired: 'expired',
    cancelled: 'cancelled', wrong_museum: 'wrong_museum', unknown: 'unknown',
  };
  const $ = (id) => document.getElementById(id);
  // The page's language (de, or en with ?lang=en): times and dates are written as people of that
  // language write them, next to the server's verdict in the museum's language.
  const LANG = (function () {
    const asked = new URLSearchParams(location.search).get('lang');
    const lang = asked === 'en' || asked === 'de' ? asked : document.documentElement.lang === 'en' ? 'en' : 'de';
    document.documentElement.lang = lang;
    return lang;
  })();
  const TIME_FORMAT = new Intl.DateTimeFormat(LANG, {
    timeZone: 'UTC', weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit',
  });
  /**
   * A visit time in the museum's time zone. The server writes instants with the museum's offset
   * ("2026-07-06T11:00:00+02:00"), so the wall clock in the string is the museum's: it is
   * formatted as such (as UTC fields), whatever zone the scanning device is set to.
   */
  function museumTime(iso) {
    const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(String(iso || ''));
    return m ? TIME_FORMAT.format(new Date(Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5]))) : '';
  }
  let token = sessionStorage.getItem(TOKEN_KEY) || localStorage.getItem(TOKEN_KEY) || '';
  let audio = null;
  let lastCode = '';
  let lastAt = 0;
  let answerTimer = 0;
  let syncing = false;

  function uuid() {
    if (crypto.randomUUID) return crypto.randomUUID();
    const b = crypto.getRandomValues(new Uint8Array(16));
    return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  }

  async function api(method, path, body) {
    const res = await fetch(path, {
      method,
      headers: { authorization: 'Bearer ' + token, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      cache: 'no-store',
    });
    const data = await res.json().catch(() => null);
    return { status: res.status, data };
  }

  // ---- sign in ----
  async function signIn(candidate, remember) {
    token = candidate;
    const r = await api('GET', '/api/v4/whoami');
    if (r.status !== 200 || !r.data || (r.data.access !== 'entry' && r.data.access !== 'user')) {
      token = '';
      throw new Error(r.status === 401 ? 'Token ungültig / invalid token' : 'Kein Scanner-Token / not a scanner token');
    }
    sessionStorage.setItem(TOKEN_KEY, candidate);
    if (remember) localStorage.setItem(TOKEN_KEY, candidate);
    $('device').textContent = 'Token …' + candidate.slice(-4) + ' · ' + (r.data.museums.length ? 'Museum ' + r.data.museums.join(', ') : 'alle Museen');
    $('signin').hidden = true;
    $('scanner').hidden = false;
    startCamera();
    showQueue();
    void sync();
  }

  $('signin-form').addEventListener('submit', (e) => {
    e.preventDefault();
    // The click is the user gesture that lets the page play sounds later.
    audio = audio || new AudioContext();
    $('signin-error').textContent = '';
    signIn($('token').value.trim(), $('remember').checked).catch((err) => ($('signin-error').textContent = err.message));
  });
  $('signout').addEventListener('click', () => {
    sessionStorage.removeItem(TOKEN_KEY);
    localStorage.removeItem(TOKEN_KEY);
    location.reload();
  });

  // ---- answers ----
  function beep(ok) {
    if (!audio) return;
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = ok ? 880 : 220;
    osc.type = ok ? 'sine' : 'square';
    gain.gain.value = 0.2;
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + (ok ? 0.15 : 0.6));
  }

  function show(kind, message, reason, ticket, detail) {
    const box = $('answer');
    box.className = 'answer ' + kind;
    box.dataset.result = reason;
    $('answer-message').textContent = message;
    $('answer-reason').textContent = reason;
    $('answer-ticket').textContent = ticket;
    $('answer-detail').textContent = detail;
    box.hidden = false;
    clearTimeout(answerTimer);
    answerTimer = setTimeout(() => (box.hidden = true), ANSWER_MS);
  }

  function showScan(scan) {
    const ok = scan.result === 'valid';
    const when = museumTime(scan.start_at);
    const entries = scan.entries_allowed ? scan.entries_used + '/' + scan.entries_allowed : '';
    show(ok ? 'valid' : 'refused', String(scan.message), REASONS[scan.result] || 'unknown',
      scan.ticket ? String(scan.ticket.title) : '', [scan.barcode, when, entries].filter(Boolean).join(' · '));
    beep(ok);
  }
  $('answer').addEventListener('click', () => ($('answer').hidden = true));

  // ---- scanning ----
  function direction() {
    return document.querySelector('input[name=direction]:checked').value;
  }

  async function submit(code) {
    const scan = { barcode: code.slice(0, 64), direction: direction(), device_scan_id: uuid(), scanned_at: new Date().toISOString() };
    let r;
    try {
      r = await api('POST', '/api/v4/scans', { scan });
    } catch {
      enqueue(scan);
      show('queued', 'Offline gespeichert', 'queued', '', scan.barcode);
      beep(true);
      return;
    }
    if (r.status === 200 || r.status === 201) showScan(r.data.scan);
    else if (r.status === 401) location.reload();
    else show('refused', (r.data && r.data.error) || 'Fehler ' + r.status, 'error ' + r.status, '', scan.barcode);
  }

  function seen(code) {
    const now = Date.now();
    if (code === lastCode && now - lastAt < SAME_CODE_PAUSE_MS) return;
    lastCode = code;
    lastAt = now;
    void submit(code);
  }

  $('manual-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const code = $('manual').value.trim();
    $('manual').value = '';
    if (code) void submit(code);
  });

  async function startCamera() {
    const status = $('camera-status');
    if (!navigator.mediaDevices || !window.ZXingWASM) {
      status.textContent = 'Keine Kamera – bitte Code eingeben';
      return;
    }
    // The wasm file comes from this server (the reader would fetch it from a CDN by default).
    window.ZXingWASM.prepareZXingModule({ overrides: { locateFile: (path) => '/scan/zxing/' + path }, fireImmediately: true });
    let stream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' }, audio: false });
    } catch (err) {
      status.textContent = 'Kamera nicht verfügbar (' + (err && err.name) + ') – bitte Code eingeben';
      return;
    }
    const video = $('video');
    video.srcObject = stream;
    await video.play().catch(() => {});
    status.textContent = 'Code vor die Kamera halten';
    const canvas = document.createElement('canvas');
    const g = canvas.getContext('2d', { willReadFrequently: true });
    const tick = async () => {
      if (video.videoWidth && $('answer').hidden) {
        canvas.width = video.videoWidth;
        canvas.height = video.videoHeight;
        g.drawImage(video, 0, 0);
        try {
          const found = await window.ZXingWASM.readBarcodes(g.getImageData(0, 0, canvas.width, canvas.height), {
            formats: ['QRCode', 'Code128'], maxNumberOfSymbols: 1, tryHarder: true,
          });
          if (found.length && found[0].isValid && found[0].text) seen(found[0].text);
        } catch (err) {
          status.textContent = 'Decoder: ' + (err && err.message);
        }
      }
      setTimeout(tick, FRAME_MS);
    };
    tick();
  }

  // ---- offline queue ----
  function queue() {
    try {
      return JSON.parse(localStorage.getItem(QUEUE_KEY) || '[]');
    } catch {
      return [];
    }
  }
  function saveQueue(q) {
    localStorage.setItem(QUEUE_KEY, JSON.stringify(q.slice(-MAX_QUEUE)));
    showQueue();
  }
  function enqueue(scan) {
    saveQueue(queue().concat([scan]));
  }
  function showQueue() {
    const n = queue().length;
    $('queue').textContent = n ? n + ' offline' : '';
  }

  /** Posts queued scans oldest first; stops at the first network failure and tries again later. */
  async function sync() {
    if (syncing || !token) return;
    syncing = true;
    try {
      for (let q = queue(); q.length; q = queue()) {
        let r;
        try {
          r = await api('POST', '/api/v4/scans', { scan: q[0] });
        } catch {
          return;
        }
        if (r.status >= 500 || r.status === 429) return;
        if (r.status === 401) return;
        // 200/201: stored (or stored before); 4xx: the server refused the scan itself, so
        // retrying it unchanged would never succeed.
        saveQueue(queue().slice(1));
      }
    } finally {
      syncing = false;
    }
  }
  window.addEventListener('online', () => void sync());
  setInterval(() => void sync(), 15000);

  if (token) signIn(token, false).catch(() => ($('signin').hidden = false));
})();
