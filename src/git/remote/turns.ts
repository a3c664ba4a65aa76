import { setImmediate as nextTurn } from 'node:timers/promises';
import { foregroundBusy, foregroundIdle } from '../../platform/http/foreground-requests';

/** How long work may hold the event loop before it gives it a turn, in milliseconds. */
const TURN_MS = 1;
/** The longest a turn given waits for the requests in flight to be answered. */
const GIVE_WAY_MS = 50;

/**
 * Gives the event loop a turn when TURN_MS passed since the last one, and at once while a
 * request is in flight, until it is answered (at most GIVE_WAY_MS): long loops over a
 * repository's objects or pages (each step awaited, but on promises that are already settled,
 * which never let timers and I/O run) would otherwise hold every request of the process, or
 * slow each by a turn at each of its trips through the event loop (to the embedded database
 * and back, several per request).
 */
export class Turns {
  private last = performance.now();

  async maybe(): Promise<void> {
    const busy = foregroundBusy();
    if (!busy && performance.now() - this.last < TURN_MS) return;
    await nextTurn();
    if (busy) await foregroundIdle(GIVE_WAY_MS);
    this.last = performance.now();
  }
}

/** The longest a slice of work holds the event loop, in milliseconds (see inSlices). */
const SLICE_MS = 10;

/**
 * A pause for work done in many small synchronous steps (reading a repository's layout): a
 * turn of the event loop once SLICE_MS passed since the last, never waiting for requests in
 * flight (Turns.maybe does, at each step while one is, which for thousands of steps costs
 * minutes while reads keep coming).
 */
export function inSlices(): () => Promise<void> {
  let last = performance.now();
  return async () => {
    if (performance.now() - last < SLICE_MS) return;
    await nextTurn();
    last = performance.now();
  };
}
