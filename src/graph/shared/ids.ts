// Global ids as GitLab writes them (`gid://gitlab/Project/1`), with Forgeline's app name. The
// model name is used, not the GraphQL type's where they differ (UserCore is a User, a
// ReleaseAssetLink a Releases::Link).
const GID = /^gid:\/\/forgeline\/([A-Za-z]+(?:::[A-Za-z]+)*)\/(\d{1,15})$/;

const MODEL_OF_TYPE: Record<string, string> = { UserCore: "User", ReleaseAssetLink: "Releases::Link" };

export const encodeGid = (typename: string, id: string | number | bigint) => `gid://forgeline/${MODEL_OF_TYPE[typename] ?? typename}/${id}`;

/** A malformed id decodes to a type no node has, so node lookups answer null rather than an error. */
export function decodeGid(globalId: string): { typename: string; id: string } {
  const match = GID.exec(globalId);
  return match ? { typename: match[1]!, id: match[2]! } : { typename: "", id: "" };
}

/** The numeric id of a global id of `model`, or null. */
export function idOfGid(globalId: string, model: string): number | null {
  const { typename, id } = decodeGid(globalId);
  return typename === model ? Number(id) : null;
}
