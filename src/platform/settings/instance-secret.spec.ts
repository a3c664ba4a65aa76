import { createHmac, type KeyObject } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigurationError, loadConfig } from '../config/app-config';
import { InstanceSecret, SECRET_KEY_FILE, SecretKeyring } from './instance-secret';
import type { InstanceSettings } from './instance-settings.service';

const bytes = (key: KeyObject): Buffer => key.export();

/** instance_settings in memory. */
function settingsWith(rows: Record<string, string> = {}) {
  const store = new Map(Object.entries(rows));
  const settings = {
    get: async (key: string) => store.get(key),
    remove: async (key: string) => void store.delete(key),
  } as unknown as InstanceSettings;
  return { settings, store };
}

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);

describe('InstanceSecret', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'bindery-secret-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  async function start(env: Record<string, string>, rows: Record<string, string> = {}) {
    const { settings, store } = settingsWith(rows);
    const secret = new InstanceSecret(loadConfig({ DATA_DIR: dataDir, ...env }), settings);
    await secret.initialize();
    return { secret, store };
  }

  it('uses SECRET_KEY when set, and writes no key file', async () => {
    const { secret } = await start({ SECRET_KEY: A });
    expect(bytes(secret.signingKey('x'))).toEqual(bytes(new SecretKeyring(A).signingKey('x')));
    expect(() => statSync(join(dataDir, SECRET_KEY_FILE))).toThrow();
  });

  it('on the embedded database, makes a key file readable by its owner only, and keeps it', async () => {
    const first = await start({});
    const file = join(dataDir, SECRET_KEY_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8').trim()).toMatch(/^[0-9a-f]{64}$/);
    const second = await start({});
    expect(bytes(second.secret.signingKey('x'))).toEqual(bytes(first.secret.signingKey('x')));
  });

  it('refuses a key file that others can read, or one too short', async () => {
    await start({});
    const file = join(dataDir, SECRET_KEY_FILE);
    chmodSync(file, 0o644);
    await expect(start({})).rejects.toThrow(/readable by others.*chmod 600/);
    chmodSync(file, 0o600);
    writeFileSync(file, 'short\n');
    await expect(start({})).rejects.toThrow(/at least 32 characters/);
  });

  it('refuses to start on PostgreSQL without SECRET_KEY, saying how to make one', async () => {
    const attempt = start({ DATABASE_URL: 'postgres://db/bindery' });
    await expect(attempt).rejects.toBeInstanceOf(ConfigurationError);
    await expect(start({ DATABASE_URL: 'postgres://db/bindery' })).rejects.toThrow(
      /SECRET_KEY is required with DATABASE_URL.*openssl rand -hex 32/,
    );
    await expect(
      start({ DATABASE_URL: 'postgres://db/bindery', SECRET_KEY: A }),
    ).resolves.toBeDefined();
  });

  it('moves a secret an earlier version kept in the database into the key file, and deletes it', async () => {
    const { secret, store } = await start({}, { secret_key: A });
    expect(store.has('secret_key')).toBe(false);
    expect(readFileSync(join(dataDir, SECRET_KEY_FILE), 'utf8').trim()).toBe(A);
    expect(bytes(secret.signingKey('x'))).toEqual(bytes(new SecretKeyring(A).signingKey('x')));
  });

  it('deletes that stored secret on PostgreSQL too, where SECRET_KEY is the secret', async () => {
    const { secret, store } = await start(
      { DATABASE_URL: 'postgres://db/bindery', SECRET_KEY: B },
      { secret_key: A },
    );
    expect(store.size).toBe(0);
    expect(bytes(secret.signingKey('x'))).toEqual(bytes(new SecretKeyring(B).signingKey('x')));
  });

  it('verifies with SECRET_KEY_PREVIOUS during a rotation, and signs with SECRET_KEY only', async () => {
    const { secret } = await start({
      SECRET_KEY: B,
      SECRET_KEY_PREVIOUS: `${A},${'c'.repeat(32)}`,
    });
    const keys = secret.verificationKeys('x');
    expect(keys).toHaveLength(3);
    expect(bytes(keys[0])).toEqual(bytes(secret.signingKey('x')));
    expect(bytes(keys[1])).toEqual(bytes(new SecretKeyring(A).signingKey('x')));
    expect(bytes(keys[1])).not.toEqual(bytes(keys[0]));
  });

  it('derives a different key for each purpose', () => {
    const keyring = new SecretKeyring(A);
    expect(bytes(keyring.signingKey('file-downloads'))).not.toEqual(
      bytes(keyring.signingKey('git-credentials')),
    );
    expect(bytes(keyring.signingKey('x'))).toHaveLength(32);
  });

  it('derives each key once, and hands out secret keys jsonwebtoken takes as they are', () => {
    const keyring = new SecretKeyring(A);
    const key = keyring.signingKey('x');
    expect(keyring.signingKey('x')).toBe(key);
    expect(key.type).toBe('secret');
    expect(bytes(key)).toEqual(createHmac('sha256', A).update('bindery:x').digest());
  });
});
