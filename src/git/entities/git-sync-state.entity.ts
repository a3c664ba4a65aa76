import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Space } from '../../spaces/entities/space.entity';

/** The layout of a synced repository: content root, readme and summary files. */
export interface SyncedLayout {
  /** Relative to the synced directory; '' = the directory itself. */
  root: string;
  readme: string;
  summary: string;
  /** The repository's site configuration, when the sync read or wrote one. */
  site?: SyncedSiteConfig;
}

/**
 * A repository's site configuration (`gitbook-docs.yaml`) as a sync read or wrote it: its path
 * in the repository, the site it describes, its text, the node of the site each of its keys
 * names, and what the site's structure was right after (a hash), to write the text back as it
 * was while the site did not change.
 */
export interface SyncedSiteConfig {
  path: string;
  siteId: string;
  text: string;
  keys: Record<string, { type: 'section-group' | 'section' | 'space'; id: string }>;
  structure?: string;
}

/**
 * What a path of the repository held at the last sync (paths relative to the content root):
 * a page's markdown file or a file. `oid` is the Git blob; `rendered` (pages) the SHA-256 of the
 * file as Bindery writes that page, so that an export keeps a file whose page did not change
 * byte for byte as the repository has it; `blob` (files) the SHA-256 of the file's bytes.
 */
export interface SyncedEntry {
  kind: 'page' | 'file';
  id: string;
  oid: string;
  rendered?: string;
  blob?: string;
  /** A page read from a file the summary did not list (kept out of it while hidden). */
  orphan?: boolean;
}

/** A redirect of `.gitbook.yaml`: a path of the space to the page of a file (or the raw target). */
export interface SyncedRedirect {
  source: string;
  /** The target as written in `.gitbook.yaml` (relative to the content root). */
  target: string;
  /** The page of `target`, when there is one. */
  pageId?: string;
}

/** An import that both sides changed and that conflicted: the change request holding it. */
export interface SyncConflict {
  commit: string;
  /** The change request's id and number. */
  id: string;
  number: number;
  /**
   * The sync the import makes once the change request is merged (or archived: the space's
   * side kept): its revision (the import, on the last sync's) and what it read.
   */
  pending: Pick<
    GitSyncState,
    'revisionId' | 'layout' | 'entries' | 'redirects' | 'summaryRendered'
  >;
}

/**
 * The last sync of a space with a repository and directory (one per pair): made by every
 * applied import and export of the space's primary content, read by the next one with that
 * repository and directory.
 */
@Entity('git_sync_states')
export class GitSyncState {
  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'PK_git_sync_states' })
  spaceId!: string;

  @ManyToOne(() => Space, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'space_id', foreignKeyConstraintName: 'FK_git_sync_states_space_id' })
  space?: Space;

  /** SHA-256 of the URL and the directory (see repositoryKey). */
  @PrimaryColumn({ type: 'varchar', length: 64, primaryKeyConstraintName: 'PK_git_sync_states' })
  repositoryKey!: string;

  @Column({ type: 'varchar', length: 2048 })
  url!: string;

  /** The project directory in the repository ('' = its root). */
  @Column({ type: 'varchar', length: 1024 })
  directory!: string;

  @Column({ type: 'varchar', length: 255 })
  ref!: string;

  /** The commit synced. */
  @Column({ type: 'varchar', length: 64 })
  commit!: string;

  /** The revision of the space whose content is that commit's. */
  @Column({ type: 'varchar', length: 32 })
  revisionId!: string;

  @Column({ type: 'jsonb' })
  layout!: SyncedLayout;

  /** Path (relative to the content root) → what it held. */
  @Column({ type: 'jsonb' })
  entries!: Record<string, SyncedEntry>;

  @Column({ type: 'jsonb' })
  redirects!: SyncedRedirect[];

  /** SHA-256 of the summary as Bindery writes it for the synced tree. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  summaryRendered!: string | null;

  @Column({ type: 'jsonb', nullable: true })
  conflict!: SyncConflict | null;

  @Column({ type: 'timestamptz' })
  syncedAt!: Date;
}
