// Secrets at rest (webhook urls, tokens, URL variable and custom header values): AES-256-GCM with a
// random 96-bit IV per value. One stored string holds everything needed to decrypt:
// "v1:" + base64(iv | tag | ciphertext). The purpose (column name) is bound in as associated data,
// so a ciphertext copied into another column does not decrypt. The key comes from the settings
// (WEBHOOK_ENCRYPTION_KEY) or is generated once into <DATA_DIR>/encryption.key (mode 0600).
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { chmodSync, existsSync, linkSync, mkdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { SecretKey, type Config } from "../../config.js";

const VERSION = "v1:";
const IV_BYTES = 12;
const TAG_BYTES = 16;
export const KEY_FILE = "encryption.key";

export interface Encryption {
  encrypt(plaintext: string, purpose: string): string;
  /** Throws when the value was not encrypted with this key and purpose (tampered, wrong key). */
  decrypt(stored: string, purpose: string): string;
}

export function createEncryption(key: SecretKey): Encryption {
  const bytes = key.bytes();
  if (bytes.length !== 32) throw new Error("the encryption key must be 32 bytes");
  return {
    encrypt(plaintext, purpose) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv("aes-256-gcm", bytes, iv);
      cipher.setAAD(Buffer.from(purpose, "utf8"));
      const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      return VERSION + Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString("base64");
    },
    decrypt(stored, purpose) {
      if (!stored.startsWith(VERSION)) throw new Error("unknown ciphertext format");
      const raw = Buffer.from(stored.slice(VERSION.length), "base64");
      if (raw.length < IV_BYTES + TAG_BYTES) throw new Error("ciphertext too short");
      const decipher = createDecipheriv("aes-256-gcm", bytes, raw.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(purpose, "utf8"));
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString("utf8");
    },
  };
}

/**
 * The key from the settings, else the one in <dataDir>/encryption.key, else a new random key
 * written there with mode 0600 (linked into place atomically, so two processes starting together agree).
 */
export function loadEncryptionKey(config: Pick<Config, "dataDir" | "webhookEncryptionKey">): SecretKey {
  if (config.webhookEncryptionKey) return config.webhookEncryptionKey;
  const file = path.resolve(config.dataDir, KEY_FILE);
  mkdirSync(path.dirname(file), { recursive: true });
  if (!existsSync(file)) createKeyFile(file);
  if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
  const text = readFileSync(file, "utf8").trim();
  if (!/^[0-9a-fA-F]{64}$/.test(text)) throw new Error(`${file} must hold 64 hex digits (a 32-byte key)`);
  return new SecretKey(Buffer.from(text, "hex"));
}

/** Written completely under a temporary name, then linked into place: never seen half-written. */
function createKeyFile(file: string): void {
  const temporary = `${file}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  writeFileSync(temporary, `${randomBytes(32).toString("hex")}\n`, { mode: 0o600, flag: "wx" });
  try {
    linkSync(temporary, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error; // another process won
  } finally {
    unlinkSync(temporary);
  }
}
