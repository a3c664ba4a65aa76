import { Injectable } from '@nestjs/common';
import { timingSafeEqual } from 'node:crypto';
import { AppConfig } from '../config/app-config';
import { newSecret, sha256Hex } from '../ids/ids';
import { InstanceSettings } from '../settings/instance-settings.service';

const SETTING = 'admin_token_sha256';

/**
 * The instance administrator's token: ADMIN_TOKEN when set; otherwise one generated on the
 * first start, printed once, and kept only as its hash.
 */
@Injectable()
export class AdminToken {
  private hash?: Buffer;

  constructor(
    private readonly config: AppConfig,
    private readonly settings: InstanceSettings,
  ) {}

  /** Loads or creates the token; returns it only when it was just generated. */
  async initialize(): Promise<string | undefined> {
    if (this.config.ADMIN_TOKEN) {
      this.hash = Buffer.from(sha256Hex(this.config.ADMIN_TOKEN), 'hex');
      return undefined;
    }
    const generated = newSecret('bnd_admin_');
    const { value, created } = await this.settings.getOrCreate(SETTING, () => sha256Hex(generated));
    this.hash = Buffer.from(value, 'hex');
    return created ? generated : undefined;
  }

  matches(tokenHash: string): boolean {
    if (!this.hash) return false;
    const candidate = Buffer.from(tokenHash, 'hex');
    return candidate.length === this.hash.length && timingSafeEqual(candidate, this.hash);
  }
}
