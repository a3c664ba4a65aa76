import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditEventsController } from './audit-events.controller';
import { AuditEventsPresenter } from './audit-events.presenter';
import { AuditEventsRepository } from './audit-events.repository';
import { AuditEventsService } from './audit-events.service';
import { AuditInterceptor } from './audit.interceptor';
import { AuditRetention } from './audit-retention';
import { AuditEvent } from './entities/audit-event.entity';

/**
 * The audit log: a global interceptor records every successful write made with a token (by
 * the route's operationId), organization admins read their organization's events, and a daily
 * job forgets them after AUDIT_RETENTION_DAYS.
 */
@Module({
  imports: [TypeOrmModule.forFeature([AuditEvent])],
  controllers: [AuditEventsController],
  providers: [
    AuditEventsRepository,
    AuditEventsService,
    AuditEventsPresenter,
    AuditRetention,
    // Bound to the writes it records when the application starts (configureApp).
    AuditInterceptor,
  ],
  exports: [AuditEventsService],
})
export class AuditModule {}
