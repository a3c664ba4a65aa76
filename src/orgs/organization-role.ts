import type { EntityManager } from 'typeorm';
import type { Role } from '../platform/policy/roles';

/**
 * A user's role in an organization within a transaction: the role, null for a guest,
 * undefined when the user is not an enabled member.
 */
export async function organizationRole(
  manager: EntityManager,
  organizationId: string,
  userId: string,
): Promise<Role | null | undefined> {
  const rows: { role: Role | null }[] = await manager.query(
    `SELECT role FROM organization_members
      WHERE organization_id = $1 AND user_id = $2 AND NOT disabled`,
    [organizationId, userId],
  );
  return rows.length === 0 ? undefined : rows[0].role;
}
