// Secrets at rest: AES-256-GCM with a random 96-bit IV per value, so equal secrets never look
// equal on disk, and any tampering fails authentication on read. Each sealed value names the key
// that sealed it, so that during a key rotation values sealed under the previous key still open.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const VERSION = 'v1';

export interface SecretBox {
  seal(plaintext: string): string;
  open(sealed: string): string;
  /** Whether a sealed value is under the current key (a rotation reseals the others). */
  isCurrent(sealed: string): boolean;
}

/** The id a sealed value names its key by: 8 hex digits of the key's SHA-256, which tell nothing of the key. */
export function secretsKeyId(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}

/**
 * A sealed value that none of the keys given opens: sealed under a key the process was not given,
 * or under one of its keys but altered since. The stored data is fine; the keys are not.
 */
export class UnreadableSecretError extends Error {
  override name = 'UnreadableSecretError';
  constructor(
    /** The key id the value names. */
    readonly keyId: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** `current` seals; `previous` keys only open what they sealed before a rotation. */
export function createSecretBox(current: Buffer, previous: Buffer[] = []): SecretBox {
  for (const key of [current, ...previous])
    if (key.length !== 32) throw new Error('secret keys must be 32 bytes (base64-encoded)');
  const currentId = secretsKeyId(current);
  const keys = new Map([...previous, current].map((key) => [secretsKeyId(key), key]));
  return {
    seal(plaintext) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', current, iv);
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return [
        VERSION,
        currentId,
        iv.toString('base64url'),
        cipher.getAuthTag().toString('base64url'),
        ciphertext.toString('base64url'),
      ].join('.');
    },
    open(sealed) {
      const [version, id, iv, tag, ciphertext] = sealed.split('.');
      if (
        version !== VERSION ||
        id === undefined ||
        iv === undefined ||
        tag === undefined ||
        ciphertext === undefined
      ) {
        throw new Error('unrecognised sealed secret');
      }
      const key = keys.get(id);
      if (!key)
        throw new UnreadableSecretError(
          id,
          `secret sealed under an unknown key (${id}): is SECRETS_KEY_PREVIOUS missing?`,
        );
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString(
          'utf8',
        );
      } catch (err) {
        throw new UnreadableSecretError(id, `secret sealed under key ${id} does not open with it`, { cause: err });
      }
    },
    isCurrent(sealed) {
      return sealed.split('.')[1] === currentId;
    },
  };
}
