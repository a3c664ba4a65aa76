import { Body, Controller, Get, HttpCode, Param, Put, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Access, Granted } from '../../platform/auth/access.decorator';
import { ErrorBody } from '../../platform/errors/error-body';
import { mapPage, Page, PageOf } from '../../platform/pagination/page';
import type { ResolvedAccess } from '../../platform/policy/access';
import { TRANSLATION_READ, TRANSLATION_WRITE } from '../translation-access';
import { ListGlossaryEntriesQueryDto, UpdateGlossaryEntriesDto } from './dto/glossary.dto';
import { GlossaryEntryResponse } from './dto/glossary-entry.response';
import { GlossaryPresenter } from './glossary.presenter';
import { GlossaryService } from './glossary.service';

const APPLIED =
  "Every run of the organization's translations applies the entries that have both its " +
  'languages: DeepL through a DeepL glossary, a chat model through its prompt, LibreTranslate ' +
  'by keeping the term out of the text and putting its translation back. A change retranslates ' +
  'only the segments holding a changed term.';

@ApiTags('glossary')
@Controller('orgs/:organizationId/translations-glossary')
export class GlossaryController {
  constructor(
    private readonly glossary: GlossaryService,
    private readonly presenter: GlossaryPresenter,
  ) {}

  @Get()
  @Access('organization', TRANSLATION_READ)
  @ApiOperation({
    operationId: 'listGlossaryEntries',
    summary: 'List glossary entries',
    description: `The organization's translation glossary, oldest first or by the term in \`orderBy\`. ${APPLIED}`,
  })
  @ApiOkResponse({ type: PageOf(GlossaryEntryResponse) })
  @ApiBadRequestResponse({ type: ErrorBody, description: 'Invalid query.' })
  async list(
    @Granted() organization: ResolvedAccess,
    @Query() query: ListGlossaryEntriesQueryDto,
  ): Promise<Page<GlossaryEntryResponse>> {
    const page = await this.glossary.list(organization.id, query);
    return mapPage(page, (entry) => this.presenter.entry(entry));
  }

  @Put()
  @HttpCode(204)
  @Access('organization', TRANSLATION_WRITE)
  @ApiOperation({
    operationId: 'updateGlossaryEntries',
    summary: 'Update glossary entries',
    description:
      'Inserts, updates (replacing every language of the entry) and deletes entries, in order, ' +
      'all or none. 400 names the first bad operation, or an update of an unknown entry; ' +
      'deleting an entry already gone does nothing.',
  })
  @ApiNoContentResponse({ description: 'Glossary entries updated.' })
  @ApiBadRequestResponse({ type: ErrorBody, description: 'Invalid operations.' })
  async update(
    @Granted() organization: ResolvedAccess,
    @Body() body: UpdateGlossaryEntriesDto,
  ): Promise<void> {
    await this.glossary.update(organization.id, body.operations);
  }

  @Get(':glossaryEntryId')
  @Access('organization', TRANSLATION_READ)
  @ApiOperation({
    operationId: 'getGlossaryEntry',
    summary: 'Get a glossary entry by its ID',
    description: 'One entry of the translation glossary: the term by language.',
  })
  @ApiOkResponse({ type: GlossaryEntryResponse })
  async get(
    @Granted() organization: ResolvedAccess,
    @Param('glossaryEntryId') id: string,
  ): Promise<GlossaryEntryResponse> {
    return this.presenter.entry(await this.glossary.get(organization.id, id));
  }
}
