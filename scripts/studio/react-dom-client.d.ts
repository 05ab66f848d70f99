// The one react-dom API the Studio page uses (no @types/react-dom installed for one function).
declare module "react-dom/client" {
  import type { ReactNode } from "react";
  export function createRoot(container: Element): { render(children: ReactNode): void; unmount(): void };
}
