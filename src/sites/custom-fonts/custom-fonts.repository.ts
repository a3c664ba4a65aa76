import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { paginate, type PageRequest } from '../../platform/pagination/keyset';
import type { Page } from '../../platform/pagination/page';
import { CustomFont } from './entities/custom-font.entity';

/** The `custom_fonts` table: the organizations' custom fonts. */
@Injectable()
export class CustomFontsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** A page of the organization's fonts, oldest first. */
  page(
    organizationId: string,
    query: PageRequest,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Page<CustomFont>> {
    const builder = manager
      .getRepository(CustomFont)
      .createQueryBuilder('font')
      .where('font.organization_id = :organizationId', { organizationId });
    return paginate(builder, query, {
      keys: [
        { sql: 'font.created_at', of: (font) => font.createdAt },
        { sql: 'font.id', of: (font) => font.id },
      ],
      direction: 'ASC',
    });
  }

  find(
    organizationId: string,
    id: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<CustomFont | null> {
    return manager.getRepository(CustomFont).findOneBy({ organizationId, id });
  }

  /** The organization's fonts among `ids`. */
  findMany(
    organizationId: string,
    ids: string[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<CustomFont[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return manager.getRepository(CustomFont).findBy({ organizationId, id: In(ids) });
  }

  /** The font, locked for the transaction's writes; null when the organization has none. */
  lock(organizationId: string, id: string, manager: EntityManager): Promise<CustomFont | null> {
    return manager
      .getRepository(CustomFont)
      .findOne({ where: { organizationId, id }, lock: { mode: 'pessimistic_write' } });
  }

  async insert(font: CustomFont, manager: EntityManager): Promise<void> {
    await manager.getRepository(CustomFont).insert(font);
  }

  async save(font: CustomFont, manager: EntityManager): Promise<void> {
    await manager
      .getRepository(CustomFont)
      .update(
        { id: font.id },
        { fontFamily: font.fontFamily, fontFaces: font.fontFaces, updatedAt: font.updatedAt },
      );
  }

  async delete(organizationId: string, id: string, manager: EntityManager): Promise<void> {
    await manager.getRepository(CustomFont).delete({ organizationId, id });
  }
}
