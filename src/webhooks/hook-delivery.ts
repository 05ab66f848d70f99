// The domain's HookDelivery (domain/web-hooks/delivery.ts) over this folder's sender, sample
// payloads and request builder.
import type { HookDelivery } from "../domain/web-hooks/delivery.js";
import { stateOf } from "../domain/web-hooks/rows.js";
import { executeHook } from "./deliver.js";
import { targetOf } from "./request.js";
import { samplePayload } from "./samples.js";

export const hookDelivery: HookDelivery = {
  deliverNow: (services, request) => executeHook(services, request),
  samplePayload,
  interpolatedUrl: (services, hook) => targetOf(stateOf(services, hook)).interpolated,
};
