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
  const $ = (id) => document.getElementById(id);
  // The page's language (de, or en with ?lang=en) is chosen by the server, which fills in the
  // static texts and hands the rest over in data-texts: every text the page writes comes from there.
  const LANG = document.documentElement.lang === 'en' ? 'en' : 'de';
  const T = JSON.parse(document.body.dataset.texts || '{}');
  const text = (key, args) => String(T[key] || key).replace(/\{(\w+)\}/g, (_m, k) => String(args && args[k] != null ? args[k] : ''));
  const LOCALE = LANG === 'en' ? 'en-GB' : 'de-DE';
  const TIME_FORMAT = new Intl.DateTimeFormat(LOCALE, {
    timeZone: 'UTC', weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23',
  });
  const CLOCK_FORMAT = new Intl.DateTimeFormat(LOCALE, { timeZone: 'UTC', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  const DAY_FORMAT = new Intl.DateTimeFormat(LOCALE, { timeZone: 'UTC', day: 'numeric', month: LANG === 'de' ? '2-digit' : 'short' });
  /**
   * The server writes instants with the museum's offset ("2026-07-06T11:00:00+02:00"), so the
   * wall clock in the string is the museum's: it is formatted as such (as UTC fields), whatever
   * zone the scanning device is set to.
   */
  function wallClock(iso) {
    const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(String(iso || ''));
    return m ? { day: m[1] + m[2] + m[3], at: new Date(Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5])) } : null;
  }
  function museumTime(iso) {
    const w = wallClock(iso);
    return w ? TIME_FORMAT.format(w.at) : '';
  }
  /** "10:42", with the date when it is not the day of `sameDayAs`. */
  function clock(iso, sameDayAs) {
    const w = wallClock(iso);
    if (!w) return '';
    const ref = wallClock(sameDayAs);
    const time = CLOCK_FORMAT.format(w.at);
    return ref && ref.day !== w.day ? DAY_FORMAT.format(w.at) + ', ' + time : time;
  }
  /** The verdict as a sentence in the page's language (never the raw result code). */
  function verdict(scan) {
    const r = scan.result;
    if (scan.direction === 'exit' && r === 'valid') return text('exitValid');
    if (scan.direction === 'exit' && r === 'already_used') return text('exited');
    if (r === 'already_used' && scan.used_at) return text('usedAt', { time: clock(scan.used_at, scan.scanned_at) });
    if (r === 'not_yet_valid' && scan.entry_opens_at) return text('opensAt', { time: clock(scan.entry_opens_at, scan.scanned_at) });
    return T[r] ? text(r) : text('unknown');
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
      throw new Error(r.status === 401 ? text('badToken') : text('notScanner'));
    }
    sessionStorage.setItem(TOKEN_KEY, candidate);
    if (remember) localStorage.setItem(TOKEN_KEY, candidate);
    $('device').textContent = 'Token …' + candidate.slice(-4) + ' · ' + (r.data.museums.length ? text('museums', { ids: r.data.museums.join(', ') }) : text('allMuseums'));
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
  /** 'ok' high and short, 'no' low and long, 'pending' (offline, verdict unknown) a soft middle tone. */
  function beep(kind) {
    if (!audio) return;
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = kind === 'ok' ? 880 : kind === 'pending' ? 440 : 220;
    osc.type = kind === 'no' ? 'square' : 'sine';
    gain.gain.value = kind === 'pending' ? 0.1 : 0.2;
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + (kind === 'no' ? 0.6 : 0.15));
  }

  function show(kind, message, reason, ticket, detail, result) {
    const box = $('answer');
    box.className = 'answer ' + kind;
    box.dataset.result = result;
    $('answer-message').textContent = message;
    $('answer-reason').textContent = reason;
    $('answer-ticket').textContent = ticket;
    $('answer-detail').textContent = detail;
    box.hidden = false;
    clearTimeout(answerTimer);
    answerTimer = setTimeout(() => (box.hidden = true), ANSWER_MS);
  }

  /** A verdict; `offline`: a scan made offline whose verdict arrives now, said so in the reason line. */
  function showScan(scan, offline) {
    const ok = scan.result === 'valid';
    const when = museumTime(scan.start_at);
    const entries = scan.entries_allowed ? scan.entries_used + '/' + scan.entries_allowed : '';
    const reason = offline ? text('offlineScan', { time: clock(scan.scanned_at) }) : '';
    show(ok ? 'valid' : 'refused', verdict(scan), reason, scan.ticket ? String(scan.ticket.title) : '',
      [scan.barcode, when, entries].filter(Boolean).join(' · '), scan.result);
    beep(ok ? 'ok' : 'no');
  }

  /** Offline verdicts stay listed (newest first, the last ten) after their answer has gone. */
  function listSynced(scan) {
    const li = document.createElement('li');
    li.className = scan.result === 'valid' ? 'ok' : 'no';
    li.dataset.result = scan.result;
    li.textContent = [clock(scan.scanned_at), scan.barcode, verdict(scan)].join(' · ');
    const list = $('synced');
    list.prepend(li);
    while (list.children.length > 10) list.lastElementChild.remove();
    $('synced-box').hidden = false;
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
      show('pending', text('pending'), '', '', scan.barcode, 'pending');
      beep('pending');
      return;
    }
    if (r.status === 200 || r.status === 201) showScan(r.data.scan);
    else if (r.status === 401) location.reload();
    else show('refused', text('error', { status: r.status }), (r.data && r.data.error) || '', '', scan.barcode, 'error');
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
      status.textContent = text('noCamera');
      return;
    }
    // The wasm file comes from this server (the reader would fetch it from a CDN by default).
    window.ZXingWASM.prepareZXingModule({ overrides: { locateFile: (path) => '/scan/zxing/' + path }, fireImmediately: true });
    let stream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' }, audio: false });
    } catch (err) {
      status.textContent = text('cameraFailed', { error: err && err.name });
      return;
    }
    const video = $('video');
    video.srcObject = stream;
    await video.play().catch(() => {});
    status.textContent = text('holdCode');
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
          status.textContent = text('decoder', { error: err && err.message });
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
    $('queue').textContent = n ? text('queue', { n }) : '';
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
        // 200/201: stored (or stored before): its verdict is shown now, as the gate only said
        // "pending" then. 4xx: the server refused the scan itself, so retrying it unchanged
        // would never succeed.
        saveQueue(queue().slice(1));
        if ((r.status === 200 || r.status === 201) && r.data && r.data.scan) {
          showScan(r.data.scan, true);
          listSynced(r.data.scan);
        }
      }
    } finally {
      syncing = false;
    }
  }
  window.addEventListener('online', () => void sync());
  setInterval(() => void sync(), 15000);

  if (token) signIn(token, false).catch(() => ($('signin').hidden = false));
})();
