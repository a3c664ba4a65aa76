/**
 * Gives the event loop a turn: converters call it between pages, so that a large import does
 * not hold the requests of the process that runs it.
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
