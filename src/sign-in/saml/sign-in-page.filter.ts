import { ArgumentsHost, Catch, ExceptionFilter, HttpException } from '@nestjs/common';
import type { Response } from 'express';
import { DomainError, statusOfKind } from '../../platform/errors/domain-error';
import { PAGE_HEADERS } from '../html-page';
import { errorPage } from './sign-in-pages';

/**
 * A refused sign-in, for a person in a browser: an HTML page with the reason and its 4xx status
 * (the identity provider posted the form, so no client reads a JSON body). Unexpected failures
 * are left to the application's filter.
 */
@Catch(DomainError, HttpException)
export class SignInPageFilter implements ExceptionFilter {
  catch(exception: DomainError | HttpException, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    if (response.headersSent) return;
    const status =
      exception instanceof DomainError ? statusOfKind(exception.kind) : exception.getStatus();
    response.status(status).set(PAGE_HEADERS).send(errorPage(status, exception.message));
  }
}
