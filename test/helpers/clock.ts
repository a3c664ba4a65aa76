import { Clock } from '../../src/platform/clock/clock';

/** A clock tests can stop and move; it runs in real time until `set` is called. */
export class TestClock extends Clock {
  private fixed?: number;

  override now(): Date {
    return new Date(this.fixed ?? Date.now());
  }

  set(time: Date | string): void {
    this.fixed = new Date(time).getTime();
  }

  /** Runs in real time again. */
  resume(): void {
    this.fixed = undefined;
  }

  advance(milliseconds: number): void {
    this.fixed = (this.fixed ?? Date.now()) + milliseconds;
  }
}
