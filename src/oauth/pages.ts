// The server-rendered pages of the authorization flow: sign in, consent, error. Plain HTML with
// labelled fields, one inline style sheet, no script and no external asset.

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** What each scope lets the application do (GitLab's scope descriptions, shortened). */
const SCOPE_DESCRIPTIONS: Record<string, string> = {
  api: "Full read and write access to the API, including all groups and projects.",
  read_api: "Read access to the API, including all groups and projects.",
  read_user: "Read your profile: username, public email and full name.",
  read_repository: "Read repositories of the projects you can access.",
  write_repository: "Read and write repositories of the projects you can access.",
  sudo: "Perform API actions as any user (administrators only).",
  admin_mode: "Perform API actions as an administrator in Admin Mode.",
  openid: "Authenticate with your account (OpenID Connect).",
  profile: "Read your profile with OpenID Connect.",
  email: "Read your primary email address with OpenID Connect.",
};

const STYLE = `body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#1f1e24;line-height:1.5}
label{display:block;margin-top:1rem;font-weight:600}input[type=text],input[type=password]{width:100%;padding:.5rem;font-size:1rem;box-sizing:border-box}
button{margin-top:1.25rem;margin-right:.5rem;padding:.5rem 1rem;font-size:1rem}.error{color:#a31b1b;border:1px solid #a31b1b;padding:.5rem}
code{background:#f0f0f0;padding:0 .25rem}`;

function layout(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Forgeline</title><style>${STYLE}</style></head>
<body><main>${body}</main></body></html>`;
}

const hidden = (name: string, value: string) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;

export function renderSignIn(options: { action: string; csrf: string; appName: string; login?: string; error?: string }): string {
  const error = options.error ? `<p class="error" role="alert">${escapeHtml(options.error)}</p>` : "";
  return layout(
    "Sign in",
    `<h1>Sign in</h1>
<p><strong>${escapeHtml(options.appName)}</strong> asks you to sign in to Forgeline.</p>${error}
<form method="post" action="${escapeHtml(options.action)}">${hidden("authenticity_token", options.csrf)}
<label for="login">Username or primary email</label>
<input type="text" id="login" name="login" autocomplete="username" required autofocus value="${escapeHtml(options.login ?? "")}">
<label for="password">Password</label>
<input type="password" id="password" name="password" autocomplete="current-password" required>
<button type="submit">Sign in</button></form>`,
  );
}

export function renderConsent(options: { action: string; abort: string; csrf: string; appName: string; username: string; scopes: string[] }): string {
  const scopes = options.scopes
    .map((scope) => `<li><code>${escapeHtml(scope)}</code>${SCOPE_DESCRIPTIONS[scope] ? ` — ${escapeHtml(SCOPE_DESCRIPTIONS[scope])}` : ""}</li>`)
    .join("\n");
  return layout(
    "Authorize application",
    `<h1>Authorize ${escapeHtml(options.appName)}?</h1>
<p>You are signed in as <strong>${escapeHtml(options.username)}</strong>.
<strong>${escapeHtml(options.appName)}</strong> asks for these permissions:</p>
<ul>${scopes}</ul>
<form method="post" action="${escapeHtml(options.action)}">${hidden("authenticity_token", options.csrf)}
<button type="submit" name="decision" value="authorize">Authorize</button></form>
<form method="post" action="${escapeHtml(options.abort)}">${hidden("authenticity_token", options.csrf)}
<button type="submit" name="decision" value="deny">Deny</button></form>`,
  );
}

/** The device flow's pages around oidc-provider's forms (`form`: its form with the CSRF field). */
export function renderDeviceInput(form: string, error: string | undefined): string {
  const message = error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : "<p>Enter the code shown on your device.</p>";
  // a label for the field, and no inline script (the pages allow none)
  const labelled = form.replace('name="user_code"', 'name="user_code" id="user_code"').replace(/ onfocus="[^"]*"/, "");
  return layout(
    "Connect a device",
    `<h1>Connect a device</h1>${message}<label for="user_code">Device code</label>${labelled}
<button type="submit" form="op.deviceInputForm">Continue</button>`,
  );
}

export function renderDeviceConfirm(form: string, appName: string, userCode: string): string {
  return layout(
    "Confirm the device",
    `<h1>Confirm the device</h1>
<p><strong>${escapeHtml(appName)}</strong> on a device showing the code <code>${escapeHtml(userCode)}</code> asks to sign in.
If you did not start this, or the code differs, cancel.</p>${form}
<button type="submit" form="op.deviceConfirmForm">Continue</button>
<button type="submit" form="op.deviceConfirmForm" name="abort" value="yes">Cancel</button>`,
  );
}

export function renderDeviceSuccess(appName: string): string {
  return layout("Device connected", `<h1>Device connected</h1><p>${escapeHtml(appName)} is signed in. You can close this page.</p>`);
}

export function renderErrorPage(error: string, description: string): string {
  return layout("Authorization error", `<h1>Authorization error</h1><p role="alert"><code>${escapeHtml(error)}</code></p><p>${escapeHtml(description)}</p>`);
}

/** Headers of every page: no framing, no script, nothing from elsewhere, never cached. */
export const PAGE_HEADERS = {
  "Content-Type": "text/html; charset=utf-8",
  "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
  "X-Frame-Options": "DENY",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "same-origin", // the Origin of the forms stays readable; nothing leaks to the client
  "Cache-Control": "no-store",
};
