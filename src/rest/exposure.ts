// Grape's conditional exposure (`expose :resolved, if: ->(note, _) { note.resolvable? }`) for REST
// answers: a field marked `extensions: { restIf: "<sibling>" }` is left out of an object whose
// sibling field is false or null (or was left out: a note's commit_id goes with its position); a
// field gated on itself is left out when it is null (`stats` of a commit asked for without). GraphQL answers keep every field (null where GitLab leaves it out).
import { getNamedType, isObjectType, Kind, type GraphQLOutputType, type SelectionSetNode } from "graphql";

/** Per response key: the sibling field that gates it, and the plan for the value below it. */
export type ExposurePlan = Map<string, { gate?: string; below?: ExposurePlan }>;

/** The gated fields of an operation's selection (undefined when there are none, the usual case). */
export function exposurePlan(type: GraphQLOutputType, selectionSet: SelectionSetNode | undefined): ExposurePlan | undefined {
  const named = getNamedType(type);
  if (!selectionSet || !isObjectType(named)) return undefined;
  const plan: ExposurePlan = new Map();
  for (const selection of selectionSet.selections) {
    if (selection.kind !== Kind.FIELD) continue;
    const field = named.getFields()[selection.name.value];
    if (!field) continue;
    const gate = field.extensions?.restIf as string | undefined;
    const below = exposurePlan(field.type, selection.selectionSet);
    if (gate || below) plan.set(selection.alias?.value ?? selection.name.value, { gate, below });
  }
  return plan.size ? plan : undefined;
}

/** Drops, in place, the gated fields whose gate is false (or, gated on themselves, null). */
export function applyExposure(value: unknown, plan: ExposurePlan | undefined): void {
  if (!plan || value === null || typeof value !== "object") return;
  if (Array.isArray(value)) {
    for (const item of value) applyExposure(item, plan);
    return;
  }
  const object = value as Record<string, unknown>;
  for (const [key, { gate, below }] of plan) {
    if (gate && (object[gate] === false || object[gate] == null)) delete object[key];
    else applyExposure(object[key], below);
  }
}
