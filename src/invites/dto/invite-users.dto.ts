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

/** Bindery's own: an invitation emailed to an address of no user yet, until it is accepted. */
export class EmailInviteResponse {
  @ApiProperty({ enum: ['email-invite'] })
  object!: 'email-invite';

  @ApiProperty()
  id!: string;

  @ApiProperty({ format: 'email', description: 'The address invited, lower-cased.' })
  email!: string;

  @ApiProperty({
    enum: ROLES,
    nullable: true,
    description: 'Role the person joins at; null: a guest.',
  })
  role!: Role | null;

  @ApiProperty({ description: 'They join as an SSO member.' })
  sso!: boolean;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Id of the user who invited; null once gone.',
  })
  invitedBy!: string | null;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;

  @ApiProperty({ format: 'date-time', description: 'When its link stops working.' })
  expiresAt!: string;

  @ApiPropertyOptional({
    format: 'uri',
    description:
      'The link that accepts it, only while email is off (no SMTP_URL): pass it on to the ' +
      'person. With email on, the link goes to the address alone.',
  })
  url?: string;
}

export class InviteUsersResponse {
  @ApiProperty({ type: [String], description: 'Ids of the users added as members.' })
  users!: string[];

  @ApiProperty({ description: 'How many were invited: users added, and addresses invited.' })
  invited!: number;

  @ApiProperty({
    type: [EmailInviteResponse],
    description:
      'Bindery extension (not in GitBook): the invitations made for the addresses of no user ' +
      'of this instance, in the order of the request. Each is emailed when email is on; when ' +
      'it is off, each carries its `url`.',
  })
  pendingInvites!: EmailInviteResponse[];

  @ApiProperty({
    description:
      'Bindery extension: whether invitations are emailed (SMTP_URL is set). When false, ' +
      'nothing was sent: pass on the `url` of each pending invite.',
  })
  emailSent!: boolean;
}
