import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty } from '@nestjs/swagger';
import { Access } from '../auth/access.decorator';
import { buildInfo } from '../build-info';

/** GitBook's `ApiInformation`. */
class ApiInformationResponse {
  @ApiProperty({ description: "Bindery's version (its package's)." }) version!: string;
  @ApiProperty({ description: 'When the running code was built, in ISO format.' }) build!: string;
}

/** What the API is: GitBook's `getApiInformation`, for clients checking what they talk to. */
@Controller()
export class ApiInformationController {
  @Get()
  @Access.user({ limitedTokens: true })
  @ApiOperation({
    operationId: 'getApiInformation',
    summary: 'Get API information',
    description: "Bindery's version and when the running code was built.",
  })
  @ApiOkResponse({ type: ApiInformationResponse })
  get(): ApiInformationResponse {
    return buildInfo();
  }
}
