import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';

/** The header a dispatched request names its event in, which the tail reports back. */
export const EVENT_HEADER = 'x-bindery-event';
/** At most this many lines are kept of one event, each at most this long. */
const MAX_LINES = 100;
const MAX_LINE_CHARS = 4000;
const MAX_BODY_BYTES = 2 * 1024 * 1024;

/** A line a script logged handling an event (a `console` call, an uncaught error). */
export interface ScriptLogLine {
  level: 'debug' | 'info' | 'warn' | 'error';
  message: string;
  timestamp: string;
}

/** What workerd's tail reports of one invocation, as the tail worker forwards it. */
interface TailReport {
  event: string | null;
  logs?: { level?: string; message?: unknown[]; timestamp?: number }[];
  exceptions?: { name?: string; message?: string; timestamp?: number }[];
}

export type LogsListener = (eventId: string, lines: ScriptLogLine[]) => void;

/**
 * Receives what integrations' scripts log, from the tail worker each sandbox runs beside its
 * script (workerd's tail workers, as Cloudflare reports a worker's `console` calls and uncaught
 * exceptions after each invocation). A loopback HTTP server; each sandbox posts under a key of
 * its own that its script never sees (it lives in the tail worker's module), so a script cannot
 * write lines into another's events.
 */
@Injectable()
export class TraceCollector implements OnModuleDestroy {
  private readonly logger = new Logger(TraceCollector.name);
  private listening: Promise<{ server: Server; address: string }> | null = null;
  private readonly keys = new Set<string>();
  private readonly listeners = new Set<LogsListener>();

  /** A new key for a sandbox, and the collector's `host:port` to post to. */
  async register(): Promise<{ key: string; address: string }> {
    this.listening ??= this.listen();
    const { address } = await this.listening;
    const key = randomBytes(24).toString('hex');
    this.keys.add(key);
    return { key, address };
  }

  unregister(key: string): void {
    this.keys.delete(key);
  }

  /** Calls `listener` with each event's lines as they arrive; returns how to stop. */
  onLogs(listener: LogsListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async onModuleDestroy(): Promise<void> {
    const listening = this.listening;
    this.listening = null;
    if (!listening) return;
    const { server } = await listening;
    await new Promise((resolve) => server.close(resolve));
  }

  private listen(): Promise<{ server: Server; address: string }> {
    return new Promise((resolve, reject) => {
      const server = createServer((req, res) => {
        void this.receive(req).then(
          (status) => res.writeHead(status).end(),
          (error: unknown) => {
            this.logger.warn(`could not read a script's logs: ${String(error)}`);
            res.writeHead(400).end();
          },
        );
      });
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        resolve({ server, address: `127.0.0.1:${port}` });
      });
    });
  }

  private async receive(req: IncomingMessage): Promise<number> {
    const key = (req.url ?? '').replace(/^\//, '');
    if (req.method !== 'POST' || !this.keys.has(key)) return 404;
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) return 413;
      chunks.push(chunk);
    }
    const reports = JSON.parse(Buffer.concat(chunks).toString('utf8')) as TailReport[];
    for (const report of Array.isArray(reports) ? reports : []) {
      if (typeof report.event !== 'string') continue;
      const lines = linesOf(report);
      if (lines.length === 0) continue;
      for (const listener of this.listeners) listener(report.event, lines);
    }
    return 204;
  }
}

/** The report's `console` lines and exceptions, in time order, as the event's trace shows them. */
export function linesOf(report: TailReport): ScriptLogLine[] {
  const lines = [
    ...(report.logs ?? []).map((log) => ({
      level: levelOf(log.level),
      message: (log.message ?? []).map(formatted).join(' '),
      at: log.timestamp ?? 0,
    })),
    ...(report.exceptions ?? []).map((exception) => ({
      level: 'error' as const,
      message: `${exception.name ?? 'Error'}: ${exception.message ?? ''}`,
      at: exception.timestamp ?? 0,
    })),
  ].sort((a, b) => a.at - b.at);
  return lines.slice(0, MAX_LINES).map(({ level, message, at }) => ({
    level,
    message: message.slice(0, MAX_LINE_CHARS),
    timestamp: new Date(at).toISOString(),
  }));
}

function levelOf(level: string | undefined): ScriptLogLine['level'] {
  switch (level) {
    case 'debug':
    case 'warn':
    case 'error':
      return level;
    default:
      // `log`, `info`, and anything newer.
      return 'info';
  }
}

function formatted(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
