import { ApiProperty } from '@nestjs/swagger';

class ErrorDetail {
  @ApiProperty({ description: 'The HTTP status code, repeated.', example: 404 })
  code!: number;

  @ApiProperty({ description: 'What went wrong, for a person.', example: 'Space not found.' })
  message!: string;
}

/** The one body of every error response. */
export class ErrorBody {
  @ApiProperty({ type: ErrorDetail })
  error!: ErrorDetail;
}

export function errorBody(code: number, message: string): ErrorBody {
  return { error: { code, message } };
}
