import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { createHmac, createSecretKey, type KeyObject, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { AppConfig, ConfigurationError } from '../config/app-config';
import { InstanceSettings } from './instance-settings.service';

/** Where an earlier version kept a generated secret: in the database, next to what it protects. */
const LEGACY_SETTING = 'secret_key';
export const SECRET_KEY_FILE = 'secret.key';

/**
 * The instance's secret, from which the keys of signed URLs, visitor tokens and encrypted Git
 * credentials are derived (one key per purpose). It never lives in the database, so a dump of
 * the database reveals nothing it protects:
 * - SECRET_KEY from the environment, when set (required with DATABASE_URL, where processes
 *   must share it);
 * - otherwise, on the embedded database, a key file created once with mode 0600 in DATA_DIR
 *   (DATA_DIR=memory: a key for the life of the process).
 * Rotation: SECRET_KEY_PREVIOUS lists earlier secrets; what they signed or encrypted is still
 * accepted and read, and everything new uses SECRET_KEY.
 */
/**
 * Keys derived from a current secret and earlier ones (HMAC-SHA256, one key per purpose), as
 * secret KeyObjects, derived once per purpose: HMAC, ciphers and jsonwebtoken take them as they
 * are (given bytes, jsonwebtoken first tries to read them as a PEM public key, failing, on every
 * token it signs or verifies: a fifth of a published page read's CPU).
 */
export class SecretKeyring {
  private readonly keys = new Map<string, readonly KeyObject[]>();

  constructor(
    private readonly current: string,
    private readonly previous: readonly string[] = [],
  ) {}

  /** The key that signs or encrypts anything new for `purpose` (e.g. 'file-downloads'). */
  signingKey(purpose: string): KeyObject {
    return this.verificationKeys(purpose)[0];
  }

  /** The keys that may have signed or encrypted something for `purpose`, the current one first. */
  verificationKeys(purpose: string): readonly KeyObject[] {
    let keys = this.keys.get(purpose);
    if (!keys) {
      keys = [this.current, ...this.previous].map((secret) =>
        createSecretKey(derive(secret, purpose)),
      );
      this.keys.set(purpose, keys);
    }
    return keys;
  }
}

@Injectable()
export class InstanceSecret implements OnModuleInit {
  private readonly logger = new Logger('InstanceSecret');
  private keyring?: SecretKeyring;

  constructor(
    private readonly config: AppConfig,
    private readonly settings: InstanceSettings,
  ) {}

  /** Before any module starts: their bootstrap may already sign or unseal. */
  onModuleInit(): Promise<void> {
    return this.initialize();
  }

  async initialize(): Promise<void> {
    const legacy = await this.settings.get(LEGACY_SETTING);
    this.keyring = new SecretKeyring(
      this.config.SECRET_KEY ?? this.generatedSecret(legacy),
      this.config.secretKeysPrevious,
    );
    if (legacy !== undefined) {
      await this.settings.remove(LEGACY_SETTING);
      this.logger.warn(
        'Removed the secret an earlier version kept in the database (instance_settings).',
      );
    }
  }

  signingKey(purpose: string): KeyObject {
    return this.initialized().signingKey(purpose);
  }

  verificationKeys(purpose: string): readonly KeyObject[] {
    return this.initialized().verificationKeys(purpose);
  }

  private initialized(): SecretKeyring {
    if (!this.keyring) throw new Error('InstanceSecret used before initialize()');
    return this.keyring;
  }

  private generatedSecret(legacy: string | undefined): string {
    if (!this.config.embeddedDatabase) {
      throw new ConfigurationError([
        'SECRET_KEY is required with DATABASE_URL: it signs download links and encrypts Git ' +
          'credentials, so it must be the same in every process and must not be kept in the ' +
          'database. Make one with `openssl rand -hex 32` and set it in the environment.',
      ]);
    }
    if (this.config.inMemory) return randomBytes(32).toString('hex');
    return readOrCreateKeyFile(join(this.config.DATA_DIR, SECRET_KEY_FILE), legacy);
  }
}

/** HMAC-SHA256 of the purpose under the secret: one independent key per use. */
function derive(secret: string, purpose: string): Buffer {
  return createHmac('sha256', secret).update(`bindery:${purpose}`).digest();
}

/**
 * The secret in `path`, created (readable by its owner only) when absent: from `seed` (the
 * secret an earlier version kept in the database, so what it protected stays readable) or at
 * random. A file others can read, or one too short, stops the start.
 */
function readOrCreateKeyFile(path: string, seed: string | undefined): string {
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `${seed ?? randomBytes(32).toString('hex')}\n`, {
      mode: 0o600,
      flag: 'wx',
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const mode = statSync(path).mode & 0o777;
  if ((mode & 0o077) !== 0) {
    throw new ConfigurationError([
      `${path} is readable by others (mode ${mode.toString(8)}): run \`chmod 600 ${path}\`.`,
    ]);
  }
  const secret = readFileSync(path, 'utf8').trim();
  if (secret.length < 32) {
    throw new ConfigurationError([`${path} must hold a secret of at least 32 characters.`]);
  }
  return secret;
}
