import { ApiProperty } from '@nestjs/swagger';
import { IsObject, IsString, MaxLength, MinLength } from 'class-validator';

/** GitBook's body of getComputedDocument and getComputedRevision. */
export class ComputeContentDto {
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      'The content source: `{type: "integration:<integration>:<sourceId>", props, ' +
      'dependencies?}`. Bindery computes the sources of integrations.',
    example: { type: 'integration:my-integration:changelog', props: { limit: 5 } },
  })
  @IsObject()
  source!: Record<string, unknown>;

  @ApiProperty({ description: 'Seed to use for the generation of IDs.', example: 'seed-1' })
  @IsString()
  @MinLength(1)
  @MaxLength(256)
  seed!: string;
}
