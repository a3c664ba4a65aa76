import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsObject, IsString, Length, registerDecorator } from 'class-validator';
import { PresentNotNull } from '../../../platform/validation/present-not-null';

/** GitBook's `ContentKitContext`, as far as Bindery renders: a document or a configuration. */
export type RenderContext =
  | { type: 'document'; spaceId: string; editable: boolean; theme: 'dark' | 'light' }
  | { type: 'configuration_space'; spaceId: string; theme: 'dark' | 'light' }
  | { type: 'configuration_account'; organizationId: string; theme: 'dark' | 'light' }
  | { type: 'configuration_site' | 'configuration_contentsource'; theme: 'dark' | 'light' };

const CONTEXT_TYPES = [
  'document',
  'configuration_space',
  'configuration_account',
  'configuration_site',
  'configuration_contentsource',
];

/** What is wrong with a render's `context`, or null. */
export function contextProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return 'context must be an object';
  }
  const context = value as Record<string, unknown>;
  if (!CONTEXT_TYPES.includes(context.type as string)) {
    return `context.type must be one of: ${CONTEXT_TYPES.join(', ')}`;
  }
  if (context.theme !== 'dark' && context.theme !== 'light') {
    return 'context.theme must be one of: dark, light';
  }
  const id = (field: string) =>
    typeof context[field] === 'string' && (context[field] as string).length > 0
      ? null
      : `context.${field} must be a non-empty string`;
  if (context.type === 'document') {
    if (typeof context.editable !== 'boolean') return 'context.editable must be a boolean';
    return id('spaceId');
  }
  if (context.type === 'configuration_space') return id('spaceId');
  if (context.type === 'configuration_account') return id('organizationId');
  return null;
}

function IsRenderContext(): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isRenderContext',
      target: target.constructor,
      propertyName: propertyName as string,
      validator: {
        validate: (value: unknown) => contextProblem(value) === null,
        defaultMessage: (args) => contextProblem(args?.value) ?? 'context is invalid',
      },
    });
}

/** GitBook's `RenderIntegrationUI`: which component, with what props, state and action, where. */
export class RenderIntegrationUIDto {
  @ApiProperty({ description: 'The component of the integration to render.' })
  @IsString()
  @Length(1, 100)
  componentId!: string;

  @ApiProperty({ type: 'object', additionalProperties: true })
  @IsObject()
  props!: Record<string, unknown>;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  @PresentNotNull()
  @IsObject()
  state?: Record<string, unknown>;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      "GitBook's `ContentKitContext`: `document` (with `spaceId`, `editable`), " +
      '`configuration_space` (`spaceId`) or `configuration_account` (`organizationId`); `theme`.',
  })
  @IsRenderContext()
  context!: RenderContext;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  @PresentNotNull()
  @IsObject()
  action?: Record<string, unknown>;
}
