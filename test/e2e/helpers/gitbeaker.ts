// gitbeaker's failures: the call must fail with a GitbeakerRequestError; its status and text.
import { GitbeakerRequestError } from "@gitbeaker/rest";
import { expect } from "vitest";

export async function failure(call: Promise<unknown>): Promise<{ status: number; message: string }> {
  const error = await call.then(
    () => { throw new Error("the call succeeded"); },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GitbeakerRequestError);
  const requestError = error as GitbeakerRequestError;
  return { status: requestError.cause!.response.status, message: requestError.message };
}
