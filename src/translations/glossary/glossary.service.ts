import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '../../platform/clock/clock';
import { DomainError, invalidInput } from '../../platform/errors/domain-error';
import { newId } from '../../platform/ids/ids';
import type { Page } from '../../platform/pagination/page';
import { TRANSLATION_LANGUAGES, type TranslationLanguage } from '../../spaces/languages';
import type { ListGlossaryEntriesQueryDto } from './dto/glossary.dto';
import { GlossaryEntry } from './entities/glossary-entry.entity';
import { GlossaryRepository } from './glossary.repository';

const glossaryEntryNotFound = () =>
  new DomainError('not_found', 'GlossaryEntryNotFound', 'Glossary entry not found.');

const MAX_TERM = 255;

type Operation =
  | { type: 'insert'; translations: Record<string, string> }
  | { type: 'update'; id: string; translations: Record<string, string> }
  | { type: 'delete'; id: string };

/**
 * The organization's translation glossary (GitBook's `translations-glossary`): entries of a term
 * in several languages, which every run of the organization's translations applies.
 */
@Injectable()
export class GlossaryService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly entries: GlossaryRepository,
    private readonly clock: Clock,
  ) {}

  list(organizationId: string, query: ListGlossaryEntriesQueryDto): Promise<Page<GlossaryEntry>> {
    return this.entries.page(organizationId, query, query.orderBy);
  }

  async get(organizationId: string, id: string): Promise<GlossaryEntry> {
    const entry = await this.entries.find(organizationId, id);
    if (!entry) throw glossaryEntryNotFound();
    return entry;
  }

  /**
   * Applies the operations in order, all or none. 400 naming the operation for a malformed
   * one, or an update of an entry the organization does not have; deleting an entry already
   * gone does nothing.
   */
  async update(organizationId: string, operations: unknown[]): Promise<void> {
    const checked = operations.map((operation, index) => checkOperation(operation, index));
    await this.dataSource.transaction(async (manager) => {
      const ids = checked.flatMap((operation) => ('id' in operation ? [operation.id] : []));
      const existing = new Map(
        (await this.entries.lock(organizationId, [...new Set(ids)], manager)).map((entry) => [
          entry.id,
          entry,
        ]),
      );
      const now = this.clock.now();
      const deleted = new Set<string>();
      const written = new Map<string, GlossaryEntry>();
      checked.forEach((operation, index) => {
        if (operation.type === 'insert') {
          const entry = Object.assign(new GlossaryEntry(), {
            id: newId(),
            organizationId,
            translations: operation.translations,
            createdAt: now,
            updatedAt: now,
          });
          written.set(entry.id, entry);
          return;
        }
        const entry = deleted.has(operation.id) ? undefined : existing.get(operation.id);
        if (operation.type === 'delete') {
          deleted.add(operation.id);
          written.delete(operation.id);
          return;
        }
        if (!entry) {
          throw invalidInput(`operations[${index}].id: no glossary entry ${operation.id}.`);
        }
        entry.translations = operation.translations;
        entry.updatedAt = now;
        written.set(entry.id, entry);
      });
      await this.entries.delete(organizationId, [...deleted], manager);
      await this.entries.save([...written.values()], manager);
    });
  }
}

/** One operation, checked: GitBook's `GlossaryBatchOperation`, with Bindery's languages. */
function checkOperation(value: unknown, index: number): Operation {
  const at = `operations[${index}]`;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalidInput(`${at} must be an object {type, id?, translations?}.`);
  }
  const operation = value as Record<string, unknown>;
  const allowed: Record<string, string[]> = {
    insert: ['type', 'translations'],
    update: ['type', 'id', 'translations'],
    delete: ['type', 'id'],
  };
  const type = operation.type;
  if (typeof type !== 'string' || !(type in allowed)) {
    throw invalidInput(`${at}.type must be one of insert, update, delete.`);
  }
  const unknown = Object.keys(operation).find((key) => !allowed[type].includes(key));
  if (unknown !== undefined) {
    throw invalidInput(`${at}.${unknown} is not allowed in a ${type} operation.`);
  }
  let id = '';
  if (type !== 'insert') {
    if (typeof operation.id !== 'string' || operation.id === '' || operation.id.length > 32) {
      throw invalidInput(`${at}.id must be a glossary entry's id.`);
    }
    id = operation.id;
  }
  if (type === 'delete') return { type, id };
  const translations = checkTranslations(operation.translations, `${at}.translations`);
  return type === 'insert' ? { type, translations } : { type: 'update', id, translations };
}

function checkTranslations(value: unknown, at: string): Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalidInput(`${at} must be an object mapping language codes to terms.`);
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0)
    throw invalidInput(`${at} must name the term in at least one language.`);
  const result: Record<string, string> = {};
  for (const [language, term] of entries) {
    if (!TRANSLATION_LANGUAGES.includes(language as TranslationLanguage)) {
      throw invalidInput(
        `${at}.${language}: not a language code (one of ${TRANSLATION_LANGUAGES.join(', ')}).`,
      );
    }
    if (typeof term !== 'string' || term.trim() === '' || term.length > MAX_TERM) {
      throw invalidInput(`${at}.${language} must be a term of 1 to ${MAX_TERM} characters.`);
    }
    if (/[\n\r]/.test(term)) throw invalidInput(`${at}.${language} must be on one line.`);
    result[language] = term;
  }
  return result;
}
