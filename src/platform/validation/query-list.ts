import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsArray } from 'class-validator';
import { PresentNotNull } from './present-not-null';

/** A repeated query key arrives as an array, a single one as a string: always the array. */
export const toArray = ({ value }: { value: unknown }): unknown =>
  value === undefined || Array.isArray(value) ? value : [value];

/**
 * A query parameter that may be repeated (`key=a&key=b`): absent, or a list (one value is a
 * list of one), never null. The item rules follow it (`@IsIn(values, { each: true })`, …).
 */
export function QueryList(): PropertyDecorator {
  return applyDecorators(PresentNotNull(), Transform(toArray), IsArray());
}
