// Setup file of every test file: the apps it started are closed once its tests are done.
import { afterAll } from "vitest";
import { closeTestApps } from "./app.js";

afterAll(closeTestApps);
