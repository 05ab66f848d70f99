// Secrets at rest: AES-256-GCM values (random IV, bound to their purpose, tamper-evident) and the
// key: from WEBHOOK_ENCRYPTION_KEY (64 hex digits or base64, validated at start, never echoed) or
// generated once into <dataDir>/encryption.key with mode 0600 and reused.
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig, SecretKey } from "../../src/config.js";
import { createEncryption, KEY_FILE, loadEncryptionKey } from "../../src/domain/shared/encryption.js";

const tempDir = () => mkdtempSync(path.join(os.tmpdir(), "forgeline-key-"));

describe("createEncryption", () => {
  const box = createEncryption(new SecretKey(randomBytes(32)));

  it("round-trips, with a fresh IV each time and no plain text in the stored value", () => {
    const a = box.encrypt("s3cret value ✓", "group_hook.token");
    const b = box.encrypt("s3cret value ✓", "group_hook.token");
    expect(a).not.toBe(b);
    expect(a).toMatch(/^v1:[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(a.slice(3), "base64").includes(Buffer.from("s3cret"))).toBe(false);
    expect(box.decrypt(a, "group_hook.token")).toBe("s3cret value ✓");
  });

  it("refuses another purpose, another key and a changed byte", () => {
    const stored = box.encrypt("value", "group_hook.url");
    expect(() => box.decrypt(stored, "group_hook.token")).toThrow();
    expect(() => createEncryption(new SecretKey(randomBytes(32))).decrypt(stored, "group_hook.url")).toThrow();
    const raw = Buffer.from(stored.slice(3), "base64");
    raw[raw.length - 1]! ^= 1;
    expect(() => box.decrypt(`v1:${raw.toString("base64")}`, "group_hook.url")).toThrow();
  });
});

describe("loadEncryptionKey", () => {
  it("generates the key file once with mode 0600 and reuses it", () => {
    const dataDir = path.join(tempDir(), "nested");
    const first = loadEncryptionKey({ dataDir, webhookEncryptionKey: undefined });
    const file = path.join(dataDir, KEY_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const text = readFileSync(file, "utf8");
    const second = loadEncryptionKey({ dataDir, webhookEncryptionKey: undefined });
    expect(second.bytes().equals(first.bytes())).toBe(true);
    expect(readFileSync(file, "utf8")).toBe(text);
    const stored = createEncryption(first).encrypt("x", "p");
    expect(createEncryption(second).decrypt(stored, "p")).toBe("x");
  });

  it("uses the configured key and writes no file", () => {
    const dataDir = tempDir();
    const key = new SecretKey(randomBytes(32));
    expect(loadEncryptionKey({ dataDir, webhookEncryptionKey: key })).toBe(key);
    expect(existsSync(path.join(dataDir, KEY_FILE))).toBe(false);
  });

  it("refuses a damaged key file", () => {
    const dataDir = tempDir();
    writeFileSync(path.join(dataDir, KEY_FILE), "not a key\n", { mode: 0o600 });
    expect(() => loadEncryptionKey({ dataDir, webhookEncryptionKey: undefined })).toThrow(/64 hex digits/);
  });
});

describe("settings", () => {
  const hex = randomBytes(32).toString("hex");

  it("WEBHOOK_ENCRYPTION_KEY: 64 hex digits or base64 (standard or url-safe) of 32 bytes", () => {
    const bytes = Buffer.from(hex, "hex");
    for (const value of [hex, hex.toUpperCase(), bytes.toString("base64"), bytes.toString("base64url")]) {
      expect(loadConfig({ WEBHOOK_ENCRYPTION_KEY: value }).webhookEncryptionKey!.bytes().equals(bytes)).toBe(true);
    }
    expect(loadConfig({}).webhookEncryptionKey).toBeUndefined();
  });

  it.each([hex.slice(2), `${hex}00`, "zz".repeat(32), randomBytes(16).toString("base64"), randomBytes(33).toString("base64")])(
    "refuses the key %#, without echoing it",
    (value) => {
      expect(() => loadConfig({ WEBHOOK_ENCRYPTION_KEY: value })).toThrow(ConfigError);
      try {
        loadConfig({ WEBHOOK_ENCRYPTION_KEY: value });
      } catch (error) {
        expect((error as Error).message).not.toContain(value);
      }
    },
  );

  it("the key never prints", () => {
    const config = loadConfig({ WEBHOOK_ENCRYPTION_KEY: hex });
    expect(JSON.stringify(config)).not.toContain(hex);
    expect(inspect(config, { depth: 5 })).not.toContain(hex);
    expect(String(config.webhookEncryptionKey)).toBe("[REDACTED]");
  });

  it("ALLOW_LOCAL_WEBHOOKS is true or false (default false)", () => {
    expect(loadConfig({}).allowLocalWebhooks).toBe(false);
    expect(loadConfig({ ALLOW_LOCAL_WEBHOOKS: "true" }).allowLocalWebhooks).toBe(true);
    expect(loadConfig({ ALLOW_LOCAL_WEBHOOKS: "false" }).allowLocalWebhooks).toBe(false);
    expect(() => loadConfig({ ALLOW_LOCAL_WEBHOOKS: "yes" })).toThrow('ALLOW_LOCAL_WEBHOOKS must be true or false, got "yes"');
  });
});
