import { randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import { normalizeUserCode } from '../store/deviceCodes.js';

// `GET /device`: where a person approves a CLI's sign-in. One self-contained page, no framework:
// it signs in (POST /api/platform/sign-in), takes the authenticator code when the session waits
// for one (POST /api/platform/mfa/verify), shows who asked for the code, from where and when
// (GET /api/platform/device/requests/:userCode), then approves or denies it on a click (POST
// /api/platform/device/approve), all with fetch from this origin, so the JSON routes' Origin and
// Content-Type rules hold. Inline script and style run under a per-response CSP nonce. The script
// finds its elements by id, so each id is used once.

const STYLE = `
body { font: 16px/1.5 system-ui, sans-serif; max-width: 26rem; margin: 3rem auto; padding: 0 1rem; color: #1a1a1a; }
h1 { font-size: 1.4rem; }
label { display: block; margin: .75rem 0 .25rem; }
input { width: 100%; box-sizing: border-box; padding: .5rem; font-size: 1rem; }
#user-code { font-family: ui-monospace, monospace; letter-spacing: .15em; text-transform: uppercase; }
button { margin: 1rem .5rem 0 0; padding: .5rem 1.25rem; font-size: 1rem; cursor: pointer; }
.error { color: #b00020; }
.done { color: #05622b; font-weight: 600; }
.muted { color: #555; font-size: .9rem; }
section[hidden] { display: none; }
h2 { font-size: 1.1rem; }
dt { font-weight: 600; }
dd { margin: 0 0 .5rem; overflow-wrap: anywhere; }
`;

const SCRIPT = `
const $ = (id) => document.getElementById(id);
const sections = ['loading', 'signin', 'mfa', 'approve', 'review', 'result'];
let reviewed;
function show(id) { for (const s of sections) $(s).hidden = s !== id; }
function fail(id, error) {
  $(id).textContent = error ? error.message + (error.hint ? ' ' + error.hint : '') : 'The host did not answer; try again.';
}
async function call(method, path, body) {
  const init = { method, credentials: 'same-origin', headers: {} };
  if (body !== undefined) { init.headers['content-type'] = 'application/json'; init.body = JSON.stringify(body); }
  try {
    const response = await fetch(path, init);
    return await response.json();
  } catch { return { ok: false }; }
}
async function refresh() {
  const me = await call('GET', '/api/platform/me');
  if (me.ok) {
    $('who').textContent = me.data.user.email;
    show('approve');
    if ($('user-code').value) return review();
    $('user-code').focus();
    return;
  }
  if (me.error && me.error.reason === 'mfa_pending') { show('mfa'); $('totp').focus(); return; }
  show('signin'); $('email').focus();
}
$('signin-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const answer = await call('POST', '/api/platform/sign-in', { email: $('email').value, password: $('password').value });
  $('password').value = '';
  if (!answer.ok) return fail('signin-error', answer.error);
  $('signin-error').textContent = '';
  await refresh();
});
$('mfa-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const answer = await call('POST', '/api/platform/mfa/verify', { code: $('totp').value });
  $('totp').value = '';
  if (!answer.ok) return fail('mfa-error', answer.error);
  $('mfa-error').textContent = '';
  await refresh();
});
// Looking a code up only shows it: approving always takes a click on Approve.
async function review() {
  const answer = await call('GET', '/api/platform/device/requests/' + encodeURIComponent($('user-code').value.trim()));
  if (!answer.ok) { show('approve'); return fail('approve-error', answer.error); }
  $('approve-error').textContent = '';
  reviewed = answer.data;
  $('review-code').textContent = reviewed.user_code;
  $('review-client').textContent = reviewed.client_name || '(the client gave no name)';
  $('review-address').textContent = reviewed.client_address || 'unknown';
  $('review-time').textContent = new Date(reviewed.requested_at).toLocaleString();
  show('review');
  $('approve-button').focus();
}
async function decide(decision) {
  const answer = await call('POST', '/api/platform/device/approve', { user_code: reviewed.user_code, decision });
  if (!answer.ok) return fail('review-error', answer.error);
  $('result-text').textContent = decision === 'approve'
    ? 'Approved. Return to your terminal: the CLI is signed in.'
    : 'Denied. The CLI will not be signed in.';
  show('result');
}
$('approve-form').addEventListener('submit', (event) => { event.preventDefault(); review(); });
$('approve-button').addEventListener('click', () => decide('approve'));
$('deny').addEventListener('click', () => decide('deny'));
$('other-code').addEventListener('click', () => { show('approve'); $('user-code').focus(); });
for (const button of document.querySelectorAll('.sign-out')) {
  button.addEventListener('click', async () => { await call('POST', '/api/platform/sign-out'); await refresh(); });
}
refresh();
`;

const page = (nonce: string, code: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in the platform CLI</title>
<style nonce="${nonce}">${STYLE}</style>
</head>
<body>
<h1>Sign in the platform CLI</h1>
<section id="loading"><p class="muted">Loading…</p><noscript><p class="error">This page needs JavaScript.</p></noscript></section>
<section id="signin" hidden>
  <p>Sign in to approve the CLI.</p>
  <form id="signin-form" method="post">
    <label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required>
    <label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
    <button type="submit">Sign in</button>
  </form>
  <p id="signin-error" class="error" role="alert"></p>
</section>
<section id="mfa" hidden>
  <p>Enter the code of your authenticator app.</p>
  <form id="mfa-form" method="post">
    <label for="totp">Authenticator code</label><input id="totp" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]{6,7}" maxlength="7" required>
    <button type="submit">Verify</button><button type="button" class="sign-out">Sign out</button>
  </form>
  <p id="mfa-error" class="error" role="alert"></p>
</section>
<section id="approve" hidden>
  <p>Signed in as <strong id="who"></strong>. Enter the code your terminal shows.</p>
  <form id="approve-form" method="post">
    <label for="user-code">Code</label><input id="user-code" name="user_code" value="${code}" autocomplete="off" spellcheck="false" required>
    <button type="submit">Continue</button>
  </form>
  <p class="muted"><button type="button" class="sign-out">Sign out</button></p>
  <p id="approve-error" class="error" role="alert"></p>
</section>
<section id="review" hidden>
  <h2>A sign-in is waiting for your approval</h2>
  <dl>
    <dt>Code</dt><dd id="review-code"></dd>
    <dt>Client (as it calls itself)</dt><dd id="review-client"></dd>
    <dt>Requested from address</dt><dd id="review-address"></dd>
    <dt>Requested at</dt><dd id="review-time"></dd>
  </dl>
  <p>Approve only a sign-in you started yourself, from this machine or one you know, just now. Check that the code matches the one your terminal shows.</p>
  <button type="button" id="approve-button">Approve</button><button type="button" id="deny">Deny</button><button type="button" id="other-code">Another code</button>
  <p id="review-error" class="error" role="alert"></p>
</section>
<section id="result" hidden><p id="result-text" class="done" role="status"></p></section>
<script nonce="${nonce}">${SCRIPT}</script>
</body>
</html>
`;

/**
 * The device sign-in page: the code from `?code=` prefilled (only a well-formed one), framing
 * refused, nothing cached, no referrer (the code is in the URL).
 */
export function devicePage(c: Context): Response {
  const nonce = randomBytes(16).toString('base64');
  const code = normalizeUserCode(c.req.query('code') ?? '') ?? '';
  c.header(
    'Content-Security-Policy',
    `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'`,
  );
  c.header('X-Frame-Options', 'DENY');
  c.header('Referrer-Policy', 'no-referrer');
  c.header('Cache-Control', 'no-store');
  return c.html(page(nonce, code));
}
