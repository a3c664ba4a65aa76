import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** Characters of a section's text sent to the model (its page title and heading first). */
export const EMBEDDED_TEXT_CHARS = 4_000;
/** Spaces queued by one sweep. */
const SWEEP_SPACES = 50;

/** What a section's embedding is made from, and its hash (the same expression). */
const SECTION_TEXT = `s.page_title || E'\\n' || s.section_title || E'\\n' || s.body`;

/**
 * Sections of a space whose embedding is missing, by another model, or of another text: the
 * first :limit, in page order.
 */
const STALE_SQL = `
  SELECT s.page_id, s.section_id, left(${SECTION_TEXT}, ${EMBEDDED_TEXT_CHARS}) AS text,
         md5(${SECTION_TEXT}) AS hash
    FROM page_sections s
    LEFT JOIN section_embeddings e
      ON e.space_id = s.space_id AND e.page_id = s.page_id AND e.section_id = s.section_id
   WHERE s.space_id = $1
     AND (e.space_id IS NULL OR e.model <> $2 OR e.text_hash <> md5(${SECTION_TEXT}))
   ORDER BY s.page_id, s.position
   LIMIT $3`;

const UPSERT_SQL = `
  INSERT INTO section_embeddings (space_id, page_id, section_id, model, text_hash, embedding)
  SELECT $1, r.page_id, r.section_id, $2, r.hash, r.embedding::real[]
    FROM unnest($3::varchar[], $4::varchar[], $5::text[], $6::text[])
      AS r(page_id, section_id, hash, embedding)
  ON CONFLICT (space_id, page_id, section_id) DO UPDATE
    SET model = excluded.model, text_hash = excluded.text_hash, embedding = excluded.embedding`;

/** Embeddings of sections the index no longer has (pages deleted, headings renamed). */
const ORPHANS_SQL = `
  DELETE FROM section_embeddings e
   WHERE e.space_id = $1
     AND NOT EXISTS (SELECT 1 FROM page_sections s
                      WHERE s.space_id = e.space_id AND s.page_id = e.page_id
                        AND s.section_id = e.section_id)`;

/** Spaces with a section the model never embedded (a new model, or content from before it). */
const UNEMBEDDED_SPACES_SQL = `
  SELECT DISTINCT s.space_id
    FROM page_sections s
    LEFT JOIN section_embeddings e
      ON e.space_id = s.space_id AND e.page_id = s.page_id AND e.section_id = s.section_id
   WHERE e.space_id IS NULL OR e.model <> $1
   LIMIT ${SWEEP_SPACES}`;

export interface StaleSection {
  page_id: string;
  section_id: string;
  text: string;
  hash: string;
}

/**
 * The `section_embeddings` table (SectionEmbeddings), read with the `page_sections` rows they
 * embed, and the pgvector extension that compares them.
 */
@Injectable()
export class SectionEmbeddingsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Up to `limit` sections of the space whose embedding by `model` is missing or stale. */
  staleSections(spaceId: string, model: string, limit: number): Promise<StaleSection[]> {
    return this.dataSource.query(STALE_SQL, [spaceId, model, limit]);
  }

  /** Stores the embeddings of `sections` (as staleSections answered them), in order. */
  async save(
    spaceId: string,
    model: string,
    sections: StaleSection[],
    vectors: number[][],
  ): Promise<void> {
    await this.dataSource.query(UPSERT_SQL, [
      spaceId,
      model,
      sections.map((section) => section.page_id),
      sections.map((section) => section.section_id),
      sections.map((section) => section.hash),
      vectors.map((vector) => `{${vector.join(',')}}`),
    ]);
  }

  /** Deletes the embeddings of sections the space's index no longer has. */
  async deleteOrphans(spaceId: string): Promise<void> {
    await this.dataSource.query(ORPHANS_SQL, [spaceId]);
  }

  /** Spaces with a section `model` never embedded (SWEEP_SPACES at most). */
  async unembeddedSpaces(model: string): Promise<string[]> {
    const rows: { space_id: string }[] = await this.dataSource.query(UNEMBEDDED_SPACES_SQL, [
      model,
    ]);
    return rows.map((row) => row.space_id);
  }

  /** Whether pgvector is installed in the database. */
  async vectorInstalled(): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `SELECT 1 FROM pg_extension WHERE extname = 'vector'`,
    );
    return rows.length > 0;
  }

  /** Creates pgvector when the server offers it; answers whether it did (or it was). */
  async createVectorExtension(): Promise<boolean> {
    const offered: unknown[] = await this.dataSource.query(
      `SELECT 1 FROM pg_available_extensions WHERE name = 'vector'`,
    );
    if (offered.length === 0) return false;
    await this.dataSource.query('CREATE EXTENSION IF NOT EXISTS vector');
    return true;
  }
}
