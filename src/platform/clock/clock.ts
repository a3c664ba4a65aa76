import { Injectable } from '@nestjs/common';

/** Current time, injectable so tests can move it (`FixedClock` in test helpers). */
@Injectable()
export class Clock {
  now(): Date {
    return new Date();
  }
}
