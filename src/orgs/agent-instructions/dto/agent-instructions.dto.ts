import { ApiProperty } from '@nestjs/swagger';
import { IsDocument } from '../../../content-engine/documents/document-validation';
import type { JSONDocument } from '../../../content-engine/documents/document';

/** GitBook's `JSONDocument`, in the API document (its nodes are checked for structure only). */
export class RichDocumentSchema {
  @ApiProperty({ enum: ['document'] }) object!: 'document';

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: '`schemaVersion` (integer, optional) and any other properties.',
    example: {},
  })
  data!: Record<string, unknown>;

  @ApiProperty({
    type: 'array',
    items: { type: 'object' },
    description:
      'Top-level block nodes (`object: "block"`, `type`, `nodes`), holding block, inline ' +
      'and text nodes.',
    example: [
      {
        object: 'block',
        type: 'paragraph',
        nodes: [
          { object: 'text', leaves: [{ object: 'leaf', text: 'Answer briefly.', marks: [] }] },
        ],
      },
    ],
  })
  nodes!: object[];
}

/** Body of `updateOrganizationAgentInstructions`. */
export class UpdateAgentInstructionsDto {
  @ApiProperty({
    type: RichDocumentSchema,
    description: 'The instructions, as a document of at most 200 KB of JSON.',
  })
  @IsDocument()
  instructions!: JSONDocument;
}

class AgentInstructionsUrls {
  @ApiProperty({ format: 'uri' }) location!: string;
}

/** GitBook's `OrganizationAgentInstructions`. */
export class AgentInstructionsResponse {
  @ApiProperty({ enum: ['agent-instructions'] }) object!: 'agent-instructions';
  @ApiProperty({ type: RichDocumentSchema }) instructions!: JSONDocument;
  @ApiProperty({
    format: 'date-time',
    description: "Never written: the organization's creation time.",
  })
  updatedAt!: string;
  @ApiProperty({
    description: 'Id of the user who last wrote them; "" when never written.',
  })
  updatedBy!: string;
  @ApiProperty({ type: AgentInstructionsUrls }) urls!: AgentInstructionsUrls;
}
