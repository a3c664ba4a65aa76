import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/** How often a draining server closes the keep-alive connections that went idle. */
const IDLE_SWEEP_MS = 100;

/**
 * Stops `server` accepting connections and waits for the requests in flight to finish, at most
 * `timeoutMs`; the connections still open then are cut. Responses sent meanwhile carry
 * `Connection: close`, and keep-alive connections are closed as soon as they are idle, so that
 * nothing new starts on them. Answers whether every request finished in time.
 */
export async function drainHttpServer(server: Server, timeoutMs: number): Promise<boolean> {
  if (!server.listening) return true;
  const closeAfterResponse = (_request: IncomingMessage, response: ServerResponse) => {
    response.shouldKeepAlive = false;
  };
  // Before the application's listener, which may answer at once.
  server.prependListener('request', closeAfterResponse);
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
  let timer: NodeJS.Timeout | undefined;
  try {
    const drained = await Promise.race([
      closed.then(() => true),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs))),
    ]);
    if (!drained) {
      server.closeAllConnections();
      await closed;
    }
    return drained;
  } finally {
    clearTimeout(timer);
    clearInterval(sweep);
    server.off('request', closeAfterResponse);
  }
}
