// The process's logger (pino): one JSON object per line on standard output, or pino-pretty's lines
// for a person at a terminal (LOG_FORMAT=pretty). Every process (server, web process, worker,
// scripts) writes through it, so one parser reads all of their output.
import pino, { type Logger } from "pino";
import pretty from "pino-pretty";

export type LogFormat = "json" | "pretty";
export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface LogSettings {
  level: LogLevel;
  format: LogFormat;
}

function build({ level, format }: LogSettings, destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    messageKey: "message",
    timestamp: pino.stdTimeFunctions.isoTime,
    serializers: { err: pino.stdSerializers.err },
  };
  // synchronous writes: a line is out before the process exits, whatever ends it
  if (format === "pretty") {
    // pino-pretty reads pino's own numeric level
    return pino(options, destination ?? pretty({ sync: true, messageKey: "message", colorize: process.stdout.isTTY === true, translateTime: "SYS:HH:MM:ss.l" }));
  }
  const json = { ...options, formatters: { level: (label: string) => ({ severity: label.toUpperCase() }) } };
  return pino(json, destination ?? pino.destination({ dest: 1, sync: true }));
}

/** Until the entry point configures it (LOG_LEVEL, LOG_FORMAT): info, JSON. */
export let logger: Logger = build({ level: "info", format: "json" });

/** `destination`: where the lines go instead of standard output (tests). */
export function configureLogging(settings: LogSettings, destination?: pino.DestinationStream): Logger {
  logger = build(settings, destination);
  return logger;
}

/** An error no request is answering for (start-up, the worker, background work), with its stack. */
export function logError(message: string, error?: unknown): void {
  if (error === undefined || error === "") logger.error(message);
  else logger.error({ err: error }, message);
}
