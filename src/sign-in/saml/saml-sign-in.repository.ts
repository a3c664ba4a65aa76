import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, LessThanOrEqual } from 'typeorm';
import { SamlAssertion } from './entities/saml-assertion.entity';
import { SamlRequest } from './entities/saml-request.entity';
import { SsoSignInCode } from './entities/sso-sign-in-code.entity';

/**
 * The tables of SAML sign-ins: `saml_requests` (AuthnRequests awaiting their answer),
 * `saml_assertions` (assertions used, against replays) and `sso_sign_in_codes`.
 */
@Injectable()
export class SamlSignInRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Records an AuthnRequest of the provider (a second save of the same id keeps the first). */
  async saveRequest(
    request: SamlRequest,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager
      .createQueryBuilder()
      .insert()
      .into(SamlRequest)
      .values(request)
      .orIgnore()
      .execute();
  }

  /** The value saved with the provider's request, if it has not expired at `now`. */
  async findRequest(
    providerId: string,
    requestId: string,
    now: Date,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<string | null> {
    const row = await manager.findOneBy(SamlRequest, { providerId, requestId });
    return row && row.expiresAt > now ? row.value : null;
  }

  /** Deletes the provider's request; its value, or null when there was none. */
  async deleteRequest(
    providerId: string,
    requestId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<string | null> {
    // A DELETE answers [rows, count].
    const [rows]: [{ value: string }[], number] = await manager.query(
      `DELETE FROM saml_requests WHERE provider_id = $1 AND request_id = $2 RETURNING value`,
      [providerId, requestId],
    );
    return rows[0]?.value ?? null;
  }

  /**
   * Remembers that the provider's assertion was used, until `expiresAt`: true, or false when
   * it already was (a replay). One statement: of two concurrent uses, one gets false.
   */
  async rememberAssertion(
    assertion: SamlAssertion,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      `INSERT INTO saml_assertions (provider_id, assertion_id, expires_at) VALUES ($1, $2, $3)
       ON CONFLICT (provider_id, assertion_id) DO NOTHING RETURNING assertion_id`,
      [assertion.providerId, assertion.assertionId, assertion.expiresAt],
    );
    return rows.length > 0;
  }

  async insertCode(
    code: SsoSignInCode,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.insert(SsoSignInCode, code);
  }

  /**
   * Takes the code with this hash, if it has not expired at `now`: deleted in the same
   * statement, so a code is exchanged once whatever runs concurrently.
   */
  async takeCode(
    codeHash: string,
    now: Date,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<SsoSignInCode | null> {
    const [rows]: [Record<string, unknown>[], number] = await manager.query(
      `DELETE FROM sso_sign_in_codes WHERE code_hash = $1 AND expires_at > $2
       RETURNING provider_id, organization_id, user_id, created_at, expires_at`,
      [codeHash, now],
    );
    const row = rows[0];
    if (!row) return null;
    return Object.assign(new SsoSignInCode(), {
      codeHash,
      providerId: row.provider_id as string,
      organizationId: row.organization_id as string,
      userId: row.user_id as string,
      createdAt: new Date(row.created_at as string | Date),
      expiresAt: new Date(row.expires_at as string | Date),
    });
  }

  /** Deletes the requests, assertions and codes expired at `now` (each table's index serves). */
  async purgeExpired(now: Date, manager: EntityManager = this.dataSource.manager): Promise<void> {
    const expired = { expiresAt: LessThanOrEqual(now) };
    await manager.delete(SamlRequest, expired);
    await manager.delete(SamlAssertion, expired);
    await manager.delete(SsoSignInCode, expired);
  }
}
