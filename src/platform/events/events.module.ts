import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EventOutbox } from './event-outbox';
import { OutboxEvent } from './outbox-event.entity';
import { OutboxEventsRepository } from './outbox-events.repository';

/** The event outbox every module records its events in. */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([OutboxEvent])],
  providers: [EventOutbox, OutboxEventsRepository],
  exports: [EventOutbox, OutboxEventsRepository],
})
export class EventsModule {}
