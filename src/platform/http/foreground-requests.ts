import type { RequestHandler } from 'express';

/*
 * The requests this process is answering, so that background work in the same process (a Git
 * import's parsing and storing; on the embedded database, whose one session runs one
 * transaction at a time, its statements too) gives way to them: between its steps it waits, a
 * bounded while, until none is in flight.
 * A request that waits behind such a step waits for one step, not for the whole job.
 */

let inFlight = 0;
let idle: (() => void)[] = [];

/** Counts each request from its arrival until its response is finished or its client is gone. */
export function trackForegroundRequests(): RequestHandler {
  return function trackForegroundRequest(_request, response, next) {
    inFlight++;
    let ended = false;
    response.once('close', () => {
      if (ended) return;
      ended = true;
      if (--inFlight === 0) {
        const waiting = idle;
        idle = [];
        waiting.forEach((resume) => resume());
      }
    });
    next();
  };
}

/** Whether a request is in flight. */
export function foregroundBusy(): boolean {
  return inFlight > 0;
}

/** Resolves once no request is in flight, or after `maxWaitMs` at the latest. */
export function foregroundIdle(maxWaitMs: number): Promise<void> {
  if (inFlight === 0) return Promise.resolve();
  return new Promise((resolve) => {
    const resume = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      idle = idle.filter((waiting) => waiting !== resume);
      resolve();
    }, maxWaitMs);
    idle.push(resume);
  });
}
