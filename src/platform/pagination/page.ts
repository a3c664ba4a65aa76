import { Type as ClassType } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export interface Page<T> {
  items: T[];
  /** Total number of items in the list (all pages). */
  count: number;
  /** Absent on the last page. */
  next?: { page: string };
}

export function mapPage<T, U>(page: Page<T>, map: (item: T) => U): Page<U> {
  return { ...page, items: page.items.map(map) };
}

class NextPage {
  @ApiProperty({ description: 'Pass as the `page` query parameter to fetch the next page.' })
  page!: string;
}

const pageClasses = new Map<ClassType, ClassType>();

/** Swagger response class `{items: Item[], count, next?}`, one per item class. */
export function PageOf<T>(item: ClassType<T>): ClassType<Page<T>> {
  const existing = pageClasses.get(item);
  if (existing) return existing as ClassType<Page<T>>;
  class PageOfItems implements Page<T> {
    @ApiProperty({ type: item, isArray: true })
    items!: T[];

    @ApiProperty({ description: 'Total number of items in the list.' })
    count!: number;

    @ApiPropertyOptional({ type: NextPage, description: 'Absent on the last page.' })
    next?: NextPage;
  }
  Object.defineProperty(PageOfItems, 'name', { value: `PageOf${item.name}` });
  pageClasses.set(item, PageOfItems);
  return PageOfItems;
}
