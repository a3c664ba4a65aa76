import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsBoolean,
  IsIn,
  IsOptional,
  registerDecorator,
  ValidationArguments,
} from 'class-validator';
import { ROLES, type Role } from '../../platform/policy/roles';
import { PresentNotNull } from '../../platform/validation/present-not-null';
import { inviteEmailsProblems, InviteeInput, MAX_INVITEES } from '../invitees';

function IsInviteEmails(): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'isInviteEmails',
      target: target.constructor,
      propertyName: String(propertyName),
      validator: {
        validate: (value: unknown, args: ValidationArguments) =>
          inviteEmailsProblems(value, args.property).length === 0,
        defaultMessage: (args?: ValidationArguments) =>
          inviteEmailsProblems(args?.value, args?.property).slice(0, 5).join('; '),
      },
    });
  };
}

/** GitBook's `InviteUsersToOrganization`. */
export class InviteUsersDto {
  @ApiProperty({
    description:
      'Addresses of existing users to add as members (matched case-insensitively), each a ' +
      'string or `{email, role}` (role null: guest).',
    type: 'array',
    minItems: 1,
    maxItems: MAX_INVITEES,
    items: {
      oneOf: [
        { type: 'string', format: 'email' },
        {
          type: 'object',
          properties: {
            email: { type: 'string', format: 'email' },
            role: { type: 'string', enum: [...ROLES], nullable: true },
          },
          required: ['email', 'role'],
        },
      ],
    },
    example: ['ada@example.com', { email: 'grace@example.com', role: 'admin' }],
  })
  @IsInviteEmails()
  emails!: InviteeInput[];

  @ApiPropertyOptional({
    enum: ROLES,
    nullable: true,
    description:
      "Role of the plain addresses; null: guests. Absent: the organization's `defaultRole`.",
  })
  @IsOptional()
  @IsIn(ROLES)
  role?: Role | null;

  @ApiPropertyOptional({ description: 'Add them as SSO members.', default: false })
  @PresentNotNull()
  @IsBoolean()
  sso?: boolean;
}

export class InviteUsersResponse {
  @ApiProperty({ type: [String], description: 'Ids of the users added as members.' })
  users!: string[];

  @ApiProperty({ description: 'How many users were added.' })
  invited!: number;

  @ApiProperty({
    type: [String],
    description:
      'Bindery extension (not in GitBook): addresses of no user of this instance, so not ' +
      'added. Users are created by the instance administrator.',
  })
  unknownEmails!: string[];
}
