import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { paginate, PageRequest } from '../platform/pagination/keyset';
import { Page } from '../platform/pagination/page';
import { EmailInvite } from './entities/email-invite.entity';

/** The `email_invites` table. */
@Injectable()
export class EmailInvitesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** A page of the organization's invites still valid at `now`, oldest first. */
  pagePending(organizationId: string, now: Date, request: PageRequest): Promise<Page<EmailInvite>> {
    const query = this.dataSource.manager
      .getRepository(EmailInvite)
      .createQueryBuilder('i')
      .where('i.organization_id = :organizationId', { organizationId })
      .andWhere('i.expires_at > :now', { now });
    return paginate(query, request, {
      keys: [
        { sql: 'i.created_at', of: (i) => i.createdAt },
        { sql: 'i.id', of: (i) => i.id },
      ],
      direction: 'ASC',
    });
  }

  /**
   * Stores the invites, one statement: an address invited before (an expired invite too) gets
   * the new one's id, role, inviter and expiry, so that its earlier link stops working.
   */
  async upsert(invites: EmailInvite[], manager: EntityManager): Promise<void> {
    if (invites.length === 0) return;
    await manager
      .createQueryBuilder()
      .insert()
      .into(EmailInvite)
      .values(invites)
      .orUpdate(
        ['id', 'role', 'sso', 'invited_by', 'created_at', 'expires_at'],
        ['organization_id', 'email'],
      )
      .execute();
  }

  /** The invite, locked until the transaction ends; null when there is none. */
  lock(inviteId: string, manager: EntityManager): Promise<EmailInvite | null> {
    return manager
      .getRepository(EmailInvite)
      .createQueryBuilder('i')
      .setLock('pessimistic_write')
      .where('i.id = :inviteId', { inviteId })
      .getOne();
  }

  /** Deletes the organization's invite of `email` unexpired at `now`, and answers it. */
  async takeUnexpired(
    organizationId: string,
    email: string,
    now: Date,
    manager: EntityManager,
  ): Promise<EmailInvite | null> {
    const result = await manager
      .createQueryBuilder()
      .delete()
      .from(EmailInvite)
      .where('organization_id = :organizationId AND email = :email AND expires_at > :now', {
        organizationId,
        email,
        now,
      })
      .returning('*')
      .execute();
    const [row] = result.raw as Record<string, unknown>[];
    return row ? fromRow(row) : null;
  }

  /** Deletes the organization's invite; false when it had none such. */
  async delete(
    organizationId: string,
    inviteId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<boolean> {
    const result = await manager.delete(EmailInvite, { id: inviteId, organizationId });
    return (result.affected ?? 0) > 0;
  }
}

/** An `email_invites` row as read raw, as the entity. */
function fromRow(row: Record<string, unknown>): EmailInvite {
  return {
    id: row.id as string,
    organizationId: row.organization_id as string,
    email: row.email as string,
    role: row.role as EmailInvite['role'],
    sso: row.sso as boolean,
    invitedBy: row.invited_by as string | null,
    createdAt: new Date(row.created_at as string),
    expiresAt: new Date(row.expires_at as string),
  };
}
