import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Observable } from 'rxjs';
import { PolicyService } from '../policy/policy.service';
import type { AuthenticatedRequest } from './actor';

/**
 * Decides the actions whose rule reads the body (a policy's `readsBody`: an update whose need
 * depends on what it asks), which the access guard leaves on the request because bodies are
 * read after the guards (RequestBodyInterceptor). `@Access` puts it on the routes that name an
 * action; route interceptors run after the global ones, so the body is there, and the handler
 * runs only if the caller may.
 */
@Injectable()
export class DeferredAccessInterceptor implements NestInterceptor {
  constructor(private readonly policy: PolicyService) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const pending = request.deferredDecision;
    if (pending) {
      const denial = this.policy.decide(pending.resource, pending.need, pending.access, {
        ...pending.request,
        body: request.body as unknown,
      });
      if (denial) throw denial;
    }
    return next.handle();
  }
}
