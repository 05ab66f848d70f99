// The Studio page's script (bundled by scripts/studio/assets.ts for the browser): @prisma/studio-core's
// React component, its SQL built in the browser for the page's dialect and sent to the Studio
// server's /bff endpoint, which runs it on the database.
import { createElement } from "react";
import { createRoot } from "react-dom/client";
import { createStudioBFFClient } from "@prisma/studio-core/data/bff";
import { createPostgresAdapter } from "@prisma/studio-core/data/postgres-core";
import { createSQLiteAdapter } from "@prisma/studio-core/data/sqlite-core";
import { Studio } from "@prisma/studio-core/ui";

/** Written into the page by the server (a JSON data block: no inline script under the page's CSP). */
interface PageConfig {
  dialect: "sqlite" | "postgresql";
}

const config = JSON.parse(document.getElementById("studio-config")!.textContent!) as PageConfig;
const executor = createStudioBFFClient({ url: new URL("bff", window.location.href) });
const adapter = config.dialect === "postgresql" ? createPostgresAdapter({ executor }) : createSQLiteAdapter({ executor });

createRoot(document.getElementById("root")!).render(createElement(Studio, { adapter }));
