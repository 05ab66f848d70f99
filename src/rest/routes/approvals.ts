// approvals rows of the /api/v4 route table
import type { Route } from "../route-helpers.js";

export const approvalRoutes: Route[] = [];
