import { applyDecorators, type Type } from '@nestjs/common';
import {
  ApiExtraModels,
  ApiOkResponse,
  ApiServiceUnavailableResponse,
  getSchemaPath,
} from '@nestjs/swagger';
import { ErrorBody } from '../platform/errors/error-body';

/** What every streamed answer's description says of the stream. */
export const STREAM =
  'A stream of server-sent events: each a `data:` line of JSON, then `event: done`; a failure ' +
  'once it has begun (the model down or erring) is `event: error` with `{"error":{"code",' +
  '"message"}}`.';

/** A 200 of server-sent events, each a `model` (`SearchAIAnswerStreamResponse`: GitBook's `SearchAIAnswerStream`). */
export function ApiEventStream(model: Type<unknown>) {
  return applyDecorators(
    ApiExtraModels(model),
    ApiOkResponse({
      description: `Events of \`${model.name.replace(/Response$/, '')}\`.`,
      content: { 'text/event-stream': { schema: { $ref: getSchemaPath(model) } } },
    }),
  );
}

/** The 503 of an answer given whole, when the model is down or errs. */
export const ApiModelDown = () =>
  ApiServiceUnavailableResponse({
    type: ErrorBody,
    description: 'The model is down, answered an error or broke off.',
  });
