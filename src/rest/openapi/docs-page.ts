// The API reference page (/api/v4/docs): Swagger UI from the swagger-ui-dist package, served by
// this server (no CDN), pointed at /api/v4/openapi.json. Only the files the page loads are served.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const ASSETS: Record<string, string> = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "favicon-32x32.png": "image/png",
  "favicon-16x16.png": "image/png",
};

const distDir = () => path.dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));

/** The page, at `base` (…/docs); assets below it (…/docs/swagger-ui.css). */
export function createDocsPage(base: string, documentUrl: string) {
  const cache = new Map<string, Buffer>();
  const asset = (name: string) => {
    if (!cache.has(name)) cache.set(name, readFileSync(path.join(distDir(), name)));
    return cache.get(name)!;
  };
  const files: Record<string, () => Response> = {
    "": () => respond(indexHtml(base), "text/html; charset=utf-8"),
    "initializer.js": () => respond(initializerJs(documentUrl), "text/javascript; charset=utf-8"),
    ...Object.fromEntries(Object.entries(ASSETS).map(([name, type]) => [name, () => respond(asset(name), type, true)])),
  };
  /** The page's answer for a path under `base`, or undefined when it is none of the page's files. */
  return (pathname: string): Response | undefined => {
    if (pathname !== base && !pathname.startsWith(`${base}/`)) return undefined;
    return files[pathname.slice(base.length).replace(/^\//, "")]?.();
  };
}

function respond(body: string | Buffer, type: string, cacheable = false): Response {
  return new Response(typeof body === "string" ? body : new Uint8Array(body), {
    headers: {
      "Content-Type": type,
      "X-Content-Type-Options": "nosniff",
      "X-Frame-Options": "SAMEORIGIN",
      ...(cacheable ? { "Cache-Control": "public, max-age=86400" } : {}),
    },
  });
}

const indexHtml = (base: string) => `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8">
    <title>Forgeline API v4 reference</title>
    <link rel="stylesheet" type="text/css" href="${base}/swagger-ui.css">
    <link rel="icon" type="image/png" href="${base}/favicon-32x32.png" sizes="32x32">
    <link rel="icon" type="image/png" href="${base}/favicon-16x16.png" sizes="16x16">
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="${base}/swagger-ui-bundle.js" charset="UTF-8"></script>
    <script src="${base}/initializer.js" charset="UTF-8"></script>
  </body>
</html>
`;

// validatorUrl null: Swagger UI would otherwise send the document to an online validator
const initializerJs = (documentUrl: string) => `window.onload = function () {
  window.ui = SwaggerUIBundle({
    url: ${JSON.stringify(documentUrl)},
    dom_id: "#swagger-ui",
    deepLinking: true,
    validatorUrl: null,
    persistAuthorization: true,
    tryItOutEnabled: false,
    filter: true,
    displayOperationId: true,
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
  });
};
`;
