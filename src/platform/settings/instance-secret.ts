import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { newSecret } from '../ids/ids';
import { InstanceSettings } from './instance-settings.service';

const SETTING = 'secret_key';

/**
 * The instance's signing secret (signed download URLs, visitor tokens): SECRET_KEY when set,
 * otherwise one generated on the first start and kept in the database, shared by every process.
 */
@Injectable()
export class InstanceSecret {
  private secret?: string;

  constructor(
    private readonly config: AppConfig,
    private readonly settings: InstanceSettings,
  ) {}

  async initialize(): Promise<void> {
    this.secret =
      this.config.SECRET_KEY ?? (await this.settings.getOrCreate(SETTING, () => newSecret())).value;
  }

  get value(): string {
    if (!this.secret) throw new Error('InstanceSecret used before initialize()');
    return this.secret;
  }
}
