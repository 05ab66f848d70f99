// Depth and complexity limits of the public graph, checked when an operation is validated, so a
// refused query runs no resolver and gets one error. Complexity counts each selected field once,
// times 10 inside each list (`nodes`, `edges`): a page of issues with their authors and reactions
// costs about 400; GitLab's depth limit is kept.
import { createComplexityRule } from "@pothos/plugin-complexity";
import type { Plugin } from "graphql-yoga";

export const MAX_DEPTH = 15;
export const MAX_COMPLEXITY = 2_500;

interface Params {
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
}

export function useGraphLimits(): Plugin {
  return {
    onValidate({ addValidationRule, context }) {
      const params = ((context as { params?: Params }).params ?? {}) as Params;
      addValidationRule(
        createComplexityRule({
          context,
          variableValues: params.variables ?? {},
          operationName: params.operationName,
          maxDepth: MAX_DEPTH,
          maxComplexity: MAX_COMPLEXITY,
        }),
      );
    },
  };
}
