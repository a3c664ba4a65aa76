import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { paginate } from '../../platform/pagination/keyset';
import type { Page } from '../../platform/pagination/page';
import type { PageRequest } from '../../platform/pagination/keyset';
import { TRANSLATION_LANGUAGES, type TranslationLanguage } from '../../spaces/languages';
import type { GlossaryTerm } from '../job/segment';
import { GlossaryEntry } from './entities/glossary-entry.entity';

/** The `translation_glossary_entries` table: the organizations' translation glossaries. */
@Injectable()
export class GlossaryRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * A page of the organization's entries: oldest first, or by their term in `orderBy` (case
   * aside; entries without that language last).
   */
  page(
    organizationId: string,
    query: PageRequest,
    orderBy: TranslationLanguage | undefined,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Page<GlossaryEntry>> {
    const builder = manager
      .getRepository(GlossaryEntry)
      .createQueryBuilder('entry')
      .where('entry.organization_id = :organizationId', { organizationId });
    if (orderBy !== undefined) {
      // Inlined: `orderBy` is one of TRANSLATION_LANGUAGES (checked again here), and the keyset
      // cursor compares the same expressions.
      if (!TRANSLATION_LANGUAGES.includes(orderBy)) throw new Error(`Unknown language ${orderBy}`);
      const term = `entry.translations ->> '${orderBy}'`;
      return paginate(builder, query, {
        keys: [
          { sql: `(${term} IS NULL)`, of: (entry) => entry.translations[orderBy] === undefined },
          {
            sql: `LOWER(COALESCE(${term}, ''))`,
            of: (entry) => (entry.translations[orderBy] ?? '').toLowerCase(),
          },
          { sql: 'entry.id', of: (entry) => entry.id },
        ],
        direction: 'ASC',
      });
    }
    return paginate(builder, query, {
      keys: [
        { sql: 'entry.created_at', of: (entry) => entry.createdAt },
        { sql: 'entry.id', of: (entry) => entry.id },
      ],
      direction: 'ASC',
    });
  }

  find(
    organizationId: string,
    id: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<GlossaryEntry | null> {
    return manager.getRepository(GlossaryEntry).findOneBy({ organizationId, id });
  }

  /** The organization's entries among `ids`, locked for the transaction's writes. */
  lock(organizationId: string, ids: string[], manager: EntityManager): Promise<GlossaryEntry[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return manager
      .getRepository(GlossaryEntry)
      .find({ where: { organizationId, id: In(ids) }, lock: { mode: 'pessimistic_write' } });
  }

  async save(entries: GlossaryEntry[], manager: EntityManager): Promise<void> {
    if (entries.length > 0) await manager.getRepository(GlossaryEntry).save(entries);
  }

  async delete(organizationId: string, ids: string[], manager: EntityManager): Promise<void> {
    if (ids.length > 0) {
      await manager.getRepository(GlossaryEntry).delete({ organizationId, id: In(ids) });
    }
  }

  /**
   * The glossary of a translation from `source` to `target`: the entries that have both, as
   * pairs, in a stable order (longest source term first, then alphabetical).
   */
  async terms(
    organizationId: string,
    source: TranslationLanguage,
    target: TranslationLanguage,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<GlossaryTerm[]> {
    const rows: { source: string; target: string }[] = await manager.query(
      `SELECT translations ->> $2 AS source, translations ->> $3 AS target
         FROM translation_glossary_entries
        WHERE organization_id = $1 AND translations ? $2 AND translations ? $3
        ORDER BY length(translations ->> $2) DESC, translations ->> $2, id`,
      [organizationId, source, target],
    );
    return rows.map(({ source: from, target: to }) => ({ source: from, target: to }));
  }
}
