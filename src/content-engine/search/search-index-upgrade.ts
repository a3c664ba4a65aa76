import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { raiseLimitsForJob } from '../../platform/database/job-limits';
import { JobsService } from '../../platform/jobs/jobs.service';
import { SearchIndexRepository } from './search-index.repository';
import { SEARCH_ANALYZER, SearchIndexer } from './search-indexer';

/** The queue that rebuilds the search index of spaces indexed by an older analyzer. */
export const SEARCH_INDEX_UPGRADE_QUEUE = 'search-index-upgrade';

/**
 * Every ten minutes: after a release that changes the analyzer (SEARCH_ANALYZER), the spaces
 * indexed before it are rebuilt within minutes, without waiting for their next edit; the
 * entries inserts left pending in the index's GIN indexes are moved into them, and its tables
 * analyzed when they grew or shrank since last time (SearchIndexRepository.maintain).
 * Otherwise three small queries.
 */
export const SEARCH_INDEX_UPGRADE_CRON = '*/10 * * * *';

/** Spaces rebuilt per run: a run stays short, and the next one continues. */
const SPACES_PER_RUN = 200;

/**
 * Rebuilds, one space per transaction, the search index of the spaces whose rows another
 * analyzer version wrote (or that were indexed before versions were recorded). A space edited
 * meanwhile is rebuilt by its own re-index first (SearchIndexer.reindex checks the version).
 */
@Injectable()
export class SearchIndexUpgrade implements OnModuleInit {
  private readonly logger = new Logger('SearchIndexUpgrade');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly jobs: JobsService,
    private readonly index: SearchIndexRepository,
    private readonly indexer: SearchIndexer,
  ) {}

  onModuleInit(): void {
    this.jobs.define(
      SEARCH_INDEX_UPGRADE_QUEUE,
      async () => {
        const rebuilt = await this.upgrade();
        if (rebuilt > 0) this.logger.log({ rebuilt }, 'Rebuilt search indexes');
        const maintained = await this.index.maintain();
        if (maintained.pendingPages > 0 || maintained.analyzed) {
          this.logger.log(maintained, 'Maintained the search index');
        }
      },
      { policy: 'singleton' },
    );
    this.jobs.schedule(SEARCH_INDEX_UPGRADE_QUEUE, SEARCH_INDEX_UPGRADE_CRON);
  }

  /**
   * Rebuilds up to SPACES_PER_RUN outdated spaces; answers how many. A space that fails (purged
   * meanwhile, say) is logged and left for the next run, not the end of this one.
   */
  async upgrade(): Promise<number> {
    const spaceIds = await this.index.findOutdatedSpaces(SEARCH_ANALYZER, SPACES_PER_RUN);
    let rebuilt = 0;
    for (const spaceId of spaceIds) {
      try {
        await this.dataSource.transaction(async (manager) => {
          await raiseLimitsForJob(manager);
          await this.indexer.rebuild(manager, spaceId);
        });
        rebuilt += 1;
      } catch (error) {
        this.logger.warn({ err: error, spaceId }, 'Search index rebuild failed');
      }
    }
    return rebuilt;
  }
}
