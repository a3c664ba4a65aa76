import { Body, Controller, Delete, Get, HttpCode, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
} from '@nestjs/swagger';
import { Access, CurrentUser, Granted } from '../platform/auth/access.decorator';
import type { UserActor } from '../platform/auth/actor';
import { ErrorBody } from '../platform/errors/error-body';
import type { SpaceAccess } from '../spaces/space-access.resolver';
import { ExportToGitRepositoryDto, ImportGitRepositoryDto } from './dto/git-operation.dto';
import { GitSyncStateResponse } from './dto/git-sync-state.response';
import { GitPresenter } from './git.presenter';
import { GitService } from './git.service';

const badRequest = ApiBadRequestResponse({ type: ErrorBody, description: 'Invalid input.' });

const BACKGROUND =
  'Runs in the background; `git/info` shows its progress and outcome in `lastOperation` ' +
  '(`pending`, `running`, `complete`, `failed` with `error`, or `ignored` when its `timestamp` ' +
  'is older than the last applied operation). Credentials in `url` are used for this operation ' +
  'only: they are stored encrypted in its job, never in clear, and never shown.';

@Controller('spaces/:spaceId/git')
export class GitController {
  constructor(
    private readonly git: GitService,
    private readonly presenter: GitPresenter,
  ) {}

  @Post('import')
  @HttpCode(204)
  @Access('space', 'admin')
  @ApiOperation({
    operationId: 'importGitRepository',
    summary: 'Import a Git repository',
    description:
      "Reads `ref` in GitBook's Git Sync layout (`.gitbook.yaml`, `SUMMARY.md`, one markdown " +
      'file per page with frontmatter, `.gitbook/assets/`), or its folder tree when it has no ' +
      "SUMMARY.md, and makes it the space's content (a new primary revision; with " +
      `\`standalone\`, a revision that does not move the primary). ${BACKGROUND}`,
  })
  @ApiNoContentResponse({ description: 'Operation to import the repository has been started.' })
  @badRequest
  async import(
    @CurrentUser() actor: UserActor,
    @Granted() access: SpaceAccess,
    @Body() body: ImportGitRepositoryDto,
  ): Promise<void> {
    await this.git.requestImport(access.entity, actor.userId, body);
  }

  @Post('export')
  @HttpCode(204)
  @Access('space', 'admin')
  @ApiOperation({
    operationId: 'exportToGitRepository',
    summary: 'Export the space to a Git repository',
    description:
      "Writes the primary content in GitBook's Git Sync layout, commits it with " +
      '`commitMessage` on top of `ref` (without `force`, only as a fast-forward) and pushes. ' +
      'The revision then records the commit in `git` and each page its file in `git`. ' +
      BACKGROUND,
  })
  @ApiNoContentResponse({ description: 'Operation to export the space has been started.' })
  @badRequest
  async export(
    @CurrentUser() actor: UserActor,
    @Granted() access: SpaceAccess,
    @Body() body: ExportToGitRepositoryDto,
  ): Promise<void> {
    await this.git.requestExport(access.entity, actor.userId, body);
  }

  @Get('info')
  @Access('space', 'read')
  @ApiOperation({
    operationId: 'getSpaceGitInfo',
    summary: 'Get space Git info',
    description:
      'The repository the space was last imported from or exported to (404 when never), and ' +
      'the latest operation (`lastOperation`, a Bindery addition).',
  })
  @ApiOkResponse({ type: GitSyncStateResponse })
  async info(@Granted() access: SpaceAccess): Promise<GitSyncStateResponse> {
    return this.presenter.state(await this.git.info(access.id));
  }

  @Delete('legacy-installation')
  @HttpCode(204)
  @Access('space', 'admin')
  @ApiOperation({
    operationId: 'deleteLegacyGitInstallation',
    summary: 'Remove the legacy Git Sync installation from the space',
    description:
      'Removes a `github-legacy` provider from the Git setup. 204 also when there is none ' +
      '(GitBook answers 205 when it removed one, 204 otherwise; the seed answers 204).',
  })
  @ApiNoContentResponse({ description: 'There is no legacy installation (any more).' })
  async deleteLegacyInstallation(@Granted() access: SpaceAccess): Promise<void> {
    await this.git.deleteLegacyInstallation(access.id);
  }
}
