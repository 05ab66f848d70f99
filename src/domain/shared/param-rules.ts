// Grape's relations between parameters as GitLab declares them (`mutually_exclusive`,
// `at_least_one_of`), checked in the domain so that REST and GraphQL answer with Grape's texts.
import { paramError } from "../../errors.js";

const given = (params: object, name: string) => (params as Record<string, unknown>)[name] != null;

/** `mutually_exclusive` over pairs of params: 400 "a, b are mutually exclusive". */
export function requireExclusive(params: object, pairs: [string, string][]): void {
  for (const [a, b] of pairs) if (given(params, a) && given(params, b)) throw paramError(`${a}, ${b} are mutually exclusive`);
}

/** `at_least_one_of`: 400 naming every one of the params, in the order given. */
export function requireAtLeastOne(params: object, names: readonly string[]): void {
  if (names.some((name) => given(params, name))) return;
  throw paramError(`${names.join(", ")} are missing, at least one parameter must be provided`);
}

/** `exactly_one_of`: Grape's text when none or several of the params are given, else null. */
export function exactlyOneProblem(params: object, names: readonly string[]): string | null {
  const count = names.filter((name) => given(params, name)).length;
  if (count === 1) return null;
  return count === 0 ? `${names.join(", ")} are missing, exactly one parameter must be provided` : `${names.join(", ")} are mutually exclusive`;
}
