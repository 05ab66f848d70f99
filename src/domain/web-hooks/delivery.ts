// What the hook endpoints (test, resend) need from the delivery side, src/webhooks, which the domain
// does not import: send one request now and record it, build a sample payload, and tell the URL a
// hook posts to. src/webhooks implements it (hook-delivery.ts); services.ts wires it in.
import type { User, WebHook } from "../../generated/prisma/client.js";
import type { Services } from "../shared/context.js";
import type { HookOwner } from "./owners.js";
import type { TestTrigger } from "./triggers.js";

export interface DeliveryRequest {
  hook: WebHook;
  trigger: string;
  data: unknown;
  idempotencyKey: string;
  eventUuid: string;
  /** send even when the hook is disabled (test deliveries) */
  force?: boolean;
  /** the data is a recorded request body: send it as it is (resend), no template */
  recorded?: boolean;
}

/** status null: no HTTP answer; message: the answer's body or the error. */
export type DeliveryResult = { sent: false; message: string } | { sent: true; status: number | null; message: string };

export interface HookDelivery {
  deliverNow(services: Services, request: DeliveryRequest): Promise<DeliveryResult>;
  samplePayload(services: Services, owner: HookOwner, trigger: TestTrigger, user: User): Promise<unknown>;
  /** the hook's URL with its variables filled in (what a history row's url hash digests) */
  interpolatedUrl(services: Services, hook: WebHook): string;
}

/** The response status the history records for a delivery that got no HTTP answer. */
export const INTERNAL_ERROR = "internal error";
