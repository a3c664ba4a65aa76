import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsDateString, IsEmail, IsOptional, IsString, IsUrl } from 'class-validator';
import { Chars, MaxChars } from '../../platform/validation/chars';

export class CreateUserDto {
  @ApiProperty({ example: 'ada@example.com' })
  @IsEmail()
  @MaxChars(320)
  email!: string;

  @ApiProperty({ example: 'Ada Lovelace', minLength: 1, maxLength: 255 })
  @IsString()
  @Chars(1, 255)
  displayName!: string;

  @ApiPropertyOptional({ format: 'uri' })
  @IsOptional()
  @IsUrl({ protocols: ['http', 'https'], require_protocol: true })
  @MaxChars(2048)
  photoURL?: string;
}

export class UpdateUserDto {
  @ApiProperty({
    description: 'A disabled user cannot authenticate; its tokens stop working at once.',
  })
  @IsBoolean()
  disabled!: boolean;
}

export class CreateTokenDto {
  @ApiPropertyOptional({ description: 'A label to recognize the token by.', maxLength: 100 })
  @IsOptional()
  @IsString()
  @Chars(1, 100)
  label?: string;

  @ApiPropertyOptional({
    format: 'date-time',
    description: 'When the token stops working (in the future); absent: never.',
  })
  @IsOptional()
  @IsDateString({ strict: true })
  expiresAt?: string;
}
